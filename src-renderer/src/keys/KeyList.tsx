import { useState } from 'react';
import { formatExact } from '../../../src-shared/format/numbers';
import { formatAge, formatLocalTime } from '../../../src-shared/format/times';
import { ErrorPanel } from '../components/ErrorPanel';
import { failureOf } from '../failureOf';
import { Badge } from '../ui/Badge';
import { Button } from '../ui/Button';
import { Empty } from '../ui/Empty';
import type { WalletFailure } from '../wallet/walletStore';
import { type KeyEntry, revokeKey } from './keysApi';

function When({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={formatLocalTime(iso)}>
      {formatAge(iso)}
    </time>
  );
}

const perMinute = (count: number) => formatExact(BigInt(count), 0);

/** A key's own budget a minute, or that it shares its address's limits. */
function Budget({ entry }: { entry: KeyEntry }) {
  if (!entry.budget) {
    return (
      <span className="text-muted" title="Its requests count against the limits of the address they come from">
        address limits
      </span>
    );
  }
  const { quotesPerMinute, buildsPerMinute } = entry.budget;
  return (
    <span title="Its own budget: its requests count against it, not against their address's limits">
      <span className="tabular-nums" data-testid="key-row-budget-quotes" data-value={quotesPerMinute}>
        {perMinute(quotesPerMinute)}
      </span>{' '}
      quotes ·{' '}
      <span className="tabular-nums" data-testid="key-row-budget-builds" data-value={buildsPerMinute}>
        {perMinute(buildsPerMinute)}
      </span>{' '}
      builds <span className="text-muted">a minute</span>
    </span>
  );
}

function KeyRow({ entry, onRevoked }: { entry: KeyEntry; onRevoked: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<WalletFailure | null>(null);

  async function revoke() {
    setBusy(true);
    setFailure(null);
    try {
      await revokeKey(entry.id);
      setConfirming(false);
      onRevoked();
    } catch (cause) {
      setFailure(failureOf(cause));
    } finally {
      setBusy(false);
    }
  }

  return (
    <tr
      data-testid="key-row"
      data-key-id={entry.id}
      data-revoked={entry.revoked ? 'yes' : 'no'}
      className={entry.revoked ? 'text-muted' : undefined}
    >
      <td>
        <div className="font-semibold" data-testid="key-row-label">
          {entry.label}
        </div>
        <code className="text-xs text-muted" title="The key's last characters">
          …{entry.hint}
        </code>
      </td>
      <td className="whitespace-nowrap" data-testid="key-row-budget" data-budget={entry.budget ? 'own' : 'address'}>
        <Budget entry={entry} />
      </td>
      <td className="whitespace-nowrap">
        <When iso={entry.createdAt} />
      </td>
      <td className="whitespace-nowrap" data-testid="key-row-last-used">
        {entry.lastUsedAt ? <When iso={entry.lastUsedAt} /> : <span className="text-muted">never</span>}
      </td>
      <td data-testid="key-row-state">
        {entry.revoked ? (
          <Badge tone="down">revoked {entry.revokedAt && <When iso={entry.revokedAt} />}</Badge>
        ) : (
          <Badge tone="up">active</Badge>
        )}
      </td>
      <td className="text-right">
        {!entry.revoked && !confirming && (
          <Button size="sm" variant="ghost" onClick={() => setConfirming(true)} testId="key-revoke">
            Revoke
          </Button>
        )}
        {!entry.revoked && confirming && (
          <span className="inline-flex flex-wrap items-center justify-end gap-1.5">
            <span className="text-xs text-muted">Bots using it stop at once.</span>
            <Button
              size="sm"
              variant="danger"
              disabled={busy}
              onClick={() => void revoke()}
              testId="key-revoke-confirm"
            >
              Revoke it
            </Button>
            <Button size="sm" disabled={busy} onClick={() => setConfirming(false)} testId="key-revoke-cancel">
              Keep it
            </Button>
          </span>
        )}
        {failure && <ErrorPanel title="Could not revoke the key" error={failure} />}
      </td>
    </tr>
  );
}

/** The wallet's keys, revoked ones included, with when each was made and last used. */
export function KeyList({ keys, onChanged }: { keys: KeyEntry[]; onChanged: () => void }) {
  if (keys.length === 0) {
    return (
      <Empty title="No API keys yet" testId="keys-empty">
        Create one above and give it to your bot.
      </Empty>
    );
  }
  return (
    <table data-testid="keys" className="w-full">
      <thead>
        <tr>
          <th scope="col">Label</th>
          <th scope="col">Budget</th>
          <th scope="col">Created</th>
          <th scope="col">Last used</th>
          <th scope="col">State</th>
          <th scope="col" className="text-right">
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {keys.map((entry) => (
          <KeyRow key={entry.id} entry={entry} onRevoked={onChanged} />
        ))}
      </tbody>
    </table>
  );
}
