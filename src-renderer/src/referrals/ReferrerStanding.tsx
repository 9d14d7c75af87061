import { Check, Minus } from 'lucide-react';
import { useState } from 'react';
import { formatBps } from '../../../src-shared/inspect/humanUnits';
import { ErrorPanel } from '../components/ErrorPanel';
import { failureOf } from '../failureOf';
import { Usd } from '../ui/Amount';
import { Badge } from '../ui/Badge';
import { Button } from '../ui/Button';
import { Card } from '../ui/Card';
import { Stat } from '../ui/Stat';
import type { WalletFailure } from '../wallet/walletStore';
import type { ReferrerRecord } from './referralsApi';
import { registerAsReferrer } from './registerAsReferrer';

function Flag({ name, value, title, children }: { name: string; value: boolean; title: string; children: string }) {
  return (
    <span data-testid={`referrer-${name}`} data-value={value ? 'yes' : 'no'} title={title}>
      <Badge tone={value ? 'up' : 'neutral'}>
        {value ? <Check size={12} aria-hidden="true" /> : <Minus size={12} aria-hidden="true" />}
        {children}
        <span className="sr-only">: {value ? 'yes' : 'no'}</span>
      </Badge>
    </span>
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
    <Card testId="referrer-standing">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0">
          <div className="text-xs text-muted">Referrer wallet</div>
          <code className="font-mono break-all" data-testid="referrer-address">
            {record.address}
          </code>
        </div>
        <div className="flex flex-wrap gap-1.5">
          <Flag name="eligible" value={record.eligible} title="Registered, or the creator of a launched token">
            Eligible
          </Flag>
          <Flag name="registered" value={record.registered} title="Registered as a referrer">
            Registered
          </Flag>
          <Flag name="active" value={record.active} title="A trade through you in the last 30 days">
            Active
          </Flag>
        </div>
      </div>
      <div className="mt-4 grid grid-cols-2 gap-4 border-t border-line pt-4 lg:grid-cols-4">
        <Stat label="Earned, all time" sub="instant cuts, at each trade's price">
          <Usd value={record.instant.earnings.all.usd} />
        </Stat>
        <Stat label="Instant cut of each trade" sub="made through your links">
          <span data-testid="rate-instant">{formatBps(record.rates.instantBps)}</span>
        </Stat>
        <Stat label="Lifetime share" sub="of the site's income from wallets bound to you">
          <span data-testid="rate-lifetime">{formatBps(record.rates.lifetimeShareBps)}</span>
        </Stat>
        <Stat label="This wallet is bound to">
          <span data-testid="referrer-bound-to">
            {record.lifetime.boundTo ? (
              <code className="font-mono text-xs break-all">{record.lifetime.boundTo}</code>
            ) : (
              <span className="font-normal text-muted">no referrer</span>
            )}
          </span>
        </Stat>
      </div>
      {!record.registered && (
        <div className="mt-4 flex flex-wrap items-center gap-3 rounded-lg bg-primary-soft px-4 py-3">
          <p className="min-w-0 flex-1">
            Registering lets trades through your links pay you. It is a message to sign: no gas, and it moves nothing.
          </p>
          <Button variant="primary" disabled={busy} onClick={() => void register()} testId="referrer-register">
            {busy ? 'Waiting for the signature…' : 'Register as a referrer'}
          </Button>
          {rejected && (
            <p className="w-full text-muted" data-testid="referrer-register-rejected">
              Not registered: you rejected the message. Nothing was sent.
            </p>
          )}
        </div>
      )}
      {failure && <ErrorPanel title="Could not register" error={failure} />}
    </Card>
  );
}
