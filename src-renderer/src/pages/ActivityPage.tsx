import { useMemo } from 'react';
import type { ActivityEntry } from '../../../src-shared/appChannelTypes';
import { ErrorPanel } from '../components/ErrorPanel';
import { useLoaded } from '../components/useLoaded';
import { age, displayUnits, shortAddress } from '../format';
import { invoke } from '../wallet/appChannel';
import { useWallet } from '../wallet/walletStore';

const STATUS_TEXT: Record<ActivityEntry['status'], string> = {
  signing: 'waiting for the signer',
  signed: 'signed',
  sent: 'sent, waiting for a block',
  confirmed: 'confirmed',
  reverted: 'reverted',
  failed: 'failed',
};

/** Often enough to see a transaction go from sent to confirmed. */
const POLL_MS = 3000;

/** What the app signed and sent, newest first, kept across restarts; refreshed while something is in flight. */
export function ActivityPage() {
  const available = useWallet((s) => s.available);
  const {
    data: entries,
    failure,
    reload: load,
  } = useLoaded(
    useMemo(() => (available ? () => invoke<ActivityEntry[]>('activity.list', { limit: 200 }) : null), [available]),
    POLL_MS,
  );

  if (!available) return <p>Open the app with its token to see what it signed (see Settings).</p>;
  return (
    <>
      <h2>Activity</h2>
      {failure && <ErrorPanel title="Could not read the activity" error={failure} onRetry={() => void load()} />}
      {entries?.length === 0 && <p className="muted">Nothing signed yet.</p>}
      {entries && entries.length > 0 && (
        <table data-testid="activity">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">What</th>
              <th scope="col">Step</th>
              <th scope="col">From</th>
              <th scope="col">Value</th>
              <th scope="col">Status</th>
              <th scope="col">Transaction</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.id} data-testid="activity-row" data-kind={entry.kind} data-status={entry.status}>
                <td>{age(entry.createdAt)}</td>
                <td>{entry.title}</td>
                <td>{entry.step}</td>
                <td>
                  <code>{shortAddress(entry.wallet)}</code>
                </td>
                <td>{entry.value && entry.value !== '0' ? `${displayUnits(entry.value)} BNB` : ''}</td>
                <td>
                  <span className={`status status-${entry.status}`}>{STATUS_TEXT[entry.status]}</span>
                  {entry.error && <div className="muted">{entry.error}</div>}
                </td>
                <td>{entry.hash ? <code title={entry.hash}>{shortAddress(entry.hash)}</code> : ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
