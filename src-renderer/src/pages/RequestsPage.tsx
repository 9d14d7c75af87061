import { useState } from 'react';
import type { Address } from 'viem';
import { ErrorPanel } from '../components/ErrorPanel';
import { failureOf } from '../failureOf';
import { RequestRow } from '../requests/RequestRow';
import { refreshIntents, useIntents } from '../requests/useIntents';
import { Link } from '../router/Link';
import { Card } from '../ui/Card';
import { Empty } from '../ui/Empty';
import { PageHeader } from '../ui/PageHeader';
import { activeAddress, useWallet } from '../wallet/walletStore';

function RequestsOf({ wallet }: { wallet: Address }) {
  const { data: intents, error, refetch } = useIntents(wallet);
  const [busy, setBusy] = useState(false);

  if (error && !intents) {
    return <ErrorPanel title="Could not read the requests" error={failureOf(error)} onRetry={() => void refetch()} />;
  }
  if (!intents) return <p className="text-muted">Loading…</p>;
  if (intents.length === 0) {
    return (
      <Card>
        <Empty title="No requests yet" testId="requests-empty">
          When a bot with one of this wallet's <Link to="/keys">API keys</Link> prepares a buy, a sell or a launch, it
          shows here for you to review and sign, or to reject.
        </Empty>
      </Card>
    );
  }
  return (
    <Card flush>
      <div className="overflow-x-auto">
        <table data-testid="requests" className="w-full">
          <thead>
            <tr>
              <th scope="col">Request</th>
              <th scope="col">When</th>
              <th scope="col">Status</th>
              <th scope="col" className="text-right">
                <span className="sr-only">Actions</span>
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
                onChanged={() => void refreshIntents(wallet)}
              />
            ))}
          </tbody>
        </table>
      </div>
      {error && (
        <p className="px-4 py-2 text-xs text-warn">Could not read the requests again: {failureOf(error).message}</p>
      )}
    </Card>
  );
}

/** Requests bots prepared for the signer's wallet, to review and sign or to reject. */
export function RequestsPage() {
  const wallet = useWallet(activeAddress);
  return (
    <>
      <PageHeader
        title="Requests"
        description="Buys, sells and launches your bots prepared for this wallet. Nothing happens until you review and sign one here."
      />
      {wallet ? (
        <RequestsOf key={wallet} wallet={wallet} />
      ) : (
        <Card>
          <Empty title="No signer yet" testId="no-signer">
            Set up a signer in <Link to="/settings">Settings</Link> to see the requests prepared for it.
          </Empty>
        </Card>
      )}
    </>
  );
}
