import { useState } from 'react';
import { ErrorPanel } from '../components/ErrorPanel';
import { failureOf } from '../failureOf';
import { age } from '../format';
import type { WalletFailure } from '../wallet/walletStore';
import { type KeyEntry, revokeKey } from './keysApi';

function When({ iso }: { iso: string }) {
  return <time title={iso}>{age(iso)}</time>;
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
    <tr data-testid="key-row" data-key-id={entry.id} data-revoked={entry.revoked ? 'yes' : 'no'}>
      <td data-testid="key-row-label">{entry.label}</td>
      <td>
        <code>…{entry.hint}</code>
      </td>
      <td>
        <When iso={entry.createdAt} />
      </td>
      <td data-testid="key-row-last-used">
        {entry.lastUsedAt ? <When iso={entry.lastUsedAt} /> : <span className="muted">never</span>}
      </td>
      <td data-testid="key-row-state">
        {entry.revoked ? (
          <span className="status status-failed">revoked {entry.revokedAt && <When iso={entry.revokedAt} />}</span>
        ) : (
          <span className="status status-confirmed">active</span>
        )}
      </td>
      <td>
        {!entry.revoked && !confirming && (
          <button type="button" onClick={() => setConfirming(true)} data-testid="key-revoke">
            Revoke
          </button>
        )}
        {!entry.revoked && confirming && (
          <span>
            Bots using it stop working at once.{' '}
            <button type="button" disabled={busy} onClick={() => void revoke()} data-testid="key-revoke-confirm">
              Revoke it
            </button>{' '}
            <button type="button" disabled={busy} onClick={() => setConfirming(false)} data-testid="key-revoke-cancel">
              Keep it
            </button>
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
      <p className="muted" data-testid="keys-empty">
        This wallet has no API keys yet.
      </p>
    );
  }
  return (
    <table data-testid="keys">
      <thead>
        <tr>
          <th scope="col">Label</th>
          <th scope="col">Ends in</th>
          <th scope="col">Created</th>
          <th scope="col">Last used</th>
          <th scope="col">State</th>
          <th scope="col">
            <span className="acct-visually-hidden">Actions</span>
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
