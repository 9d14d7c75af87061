import { useCallback, useState } from 'react';
import type { Address } from 'viem';
import { ErrorPanel } from '../components/ErrorPanel';
import { useLoaded } from '../components/useLoaded';
import { listIntents } from '../requests/intentsApi';
import { RequestRow } from '../requests/RequestRow';
import { Link } from '../router/Link';
import { activeAddress, useWallet } from '../wallet/walletStore';

/** Bots may add requests at any time; the list is read again this often. */
const POLL_MS = 5000;

function RequestsOf({ wallet }: { wallet: Address }) {
  const {
    data: intents,
    failure,
    reload: load,
  } = useLoaded(
    useCallback(() => listIntents(wallet), [wallet]),
    POLL_MS,
  );
  const [busy, setBusy] = useState(false);

  return (
    <>
      {failure && <ErrorPanel title="Could not read the requests" error={failure} onRetry={() => void load()} />}
      {!intents && !failure && <p className="muted">Loading…</p>}
      {intents?.length === 0 && (
        <p className="muted" data-testid="requests-empty">
          No bot has prepared a request for this wallet.
        </p>
      )}
      {intents && intents.length > 0 && (
        <table data-testid="requests">
          <thead>
            <tr>
              <th scope="col">Kind</th>
              <th scope="col">What</th>
              <th scope="col">Created</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span className="acct-visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {intents.map((intent) => (
              <RequestRow
                key={intent.id}
                intent={intent}
                locked={busy}
                onBusy={setBusy}
                onChanged={() => void load()}
              />
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

/** Requests bots prepared for the signer's wallet, to review and sign or to reject. */
export function RequestsPage() {
  const wallet = useWallet(activeAddress);
  return (
    <>
      <h2>Prepared requests</h2>
      <p className="muted">
        A bot can prepare a buy, a sell or a launch for this wallet; nothing happens until you review and sign it here.
      </p>
      {wallet ? (
        <RequestsOf key={wallet} wallet={wallet} />
      ) : (
        <p data-testid="no-signer">
          Set up a signer in <Link to="/settings">Settings</Link> to see the requests prepared for it.
        </p>
      )}
    </>
  );
}
