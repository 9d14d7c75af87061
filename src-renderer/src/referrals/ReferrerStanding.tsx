import { useState } from 'react';
import { ErrorPanel } from '../components/ErrorPanel';
import { failureOf } from '../failureOf';
import type { WalletFailure } from '../wallet/walletStore';
import type { ReferrerRecord } from './referralsApi';
import { registerAsReferrer } from './registerAsReferrer';

const percent = (bps: number): string => `${bps / 100}%`;

function Flag({ name, value, children }: { name: string; value: boolean; children: string }) {
  return (
    <tr>
      <th scope="row">{children}</th>
      <td>
        <span
          className={`acct-flag ${value ? 'acct-flag-yes' : 'acct-flag-no'}`}
          data-testid={`referrer-${name}`}
          data-value={value ? 'yes' : 'no'}
        >
          {value ? 'yes' : 'no'}
        </span>
      </td>
    </tr>
  );
}

/** Whether the wallet can earn as a referrer, its rates and binding, and registering (a signed message, no gas). */
export function ReferrerStanding({ record, onRegistered }: { record: ReferrerRecord; onRegistered: () => void }) {
  const [busy, setBusy] = useState(false);
  const [rejected, setRejected] = useState(false);
  const [failure, setFailure] = useState<WalletFailure | null>(null);

  async function register() {
    setBusy(true);
    setRejected(false);
    setFailure(null);
    try {
      if ((await registerAsReferrer(record.address)) === 'rejected') setRejected(true);
      else onRegistered();
    } catch (cause) {
      setFailure(failureOf(cause));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="panel" data-testid="referrer-standing">
      <p>
        Wallet <code data-testid="referrer-address">{record.address}</code>
      </p>
      <table>
        <tbody>
          <Flag name="eligible" value={record.eligible}>
            Eligible (registered, or the creator of a launched token)
          </Flag>
          <Flag name="registered" value={record.registered}>
            Registered as a referrer
          </Flag>
          <Flag name="active" value={record.active}>
            Active (a trade through you in the last 30 days)
          </Flag>
          <tr>
            <th scope="row">Instant cut of each trade made through you</th>
            <td data-testid="rate-instant">{percent(record.rates.instantBps)}</td>
          </tr>
          <tr>
            <th scope="row">Lifetime share of the site's income from wallets bound to you</th>
            <td data-testid="rate-lifetime">{percent(record.rates.lifetimeShareBps)}</td>
          </tr>
          <tr>
            <th scope="row">This wallet is bound to</th>
            <td data-testid="referrer-bound-to">
              {record.lifetime.boundTo ? (
                <code>{record.lifetime.boundTo}</code>
              ) : (
                <span className="muted">no referrer</span>
              )}
            </td>
          </tr>
        </tbody>
      </table>
      {!record.registered && (
        <div className="acct-register">
          <p>
            Registering lets trades through your links pay you. It is a message to sign: no gas, and it moves nothing.
          </p>
          <button type="button" disabled={busy} onClick={() => void register()} data-testid="referrer-register">
            {busy ? 'Waiting for the signature…' : 'Register as a referrer'}
          </button>
          {rejected && (
            <p className="muted" data-testid="referrer-register-rejected">
              Not registered: you rejected the message. Nothing was sent.
            </p>
          )}
        </div>
      )}
      {failure && <ErrorPanel title="Could not register" error={failure} />}
    </section>
  );
}
