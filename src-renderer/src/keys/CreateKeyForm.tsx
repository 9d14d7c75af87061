import { useState } from 'react';
import type { Address } from 'viem';
import { ErrorPanel } from '../components/ErrorPanel';
import { failureOf } from '../failureOf';
import type { WalletFailure } from '../wallet/walletStore';
import { createApiKey } from './createApiKey';
import { type CreatedKey, MAX_KEY_LABEL_CHARS } from './keysApi';

/** A label and one signed message make a key; the label tells keys apart in the list later. */
export function CreateKeyForm({ wallet, onCreated }: { wallet: Address; onCreated: (key: CreatedKey) => void }) {
  const [label, setLabel] = useState('');
  const [busy, setBusy] = useState(false);
  const [rejected, setRejected] = useState(false);
  const [failure, setFailure] = useState<WalletFailure | null>(null);

  async function create() {
    setBusy(true);
    setRejected(false);
    setFailure(null);
    try {
      const created = await createApiKey(wallet, label);
      if (created === 'rejected') setRejected(true);
      else {
        setLabel('');
        onCreated(created);
      }
    } catch (cause) {
      setFailure(failureOf(cause));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="panel">
      <h3>Create a key</h3>
      <p className="muted">
        A bot sends the key in the x-api-key header; trades it builds then pay you as their default referrer. Creating
        one is a message to sign: no gas, and it moves nothing.
      </p>
      <form
        className="acct-inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          void create();
        }}
      >
        <label>
          Label{' '}
          <input
            value={label}
            maxLength={MAX_KEY_LABEL_CHARS}
            placeholder="the bot that will use it"
            onChange={(event) => setLabel(event.target.value)}
            data-testid="key-label"
          />
        </label>{' '}
        <button type="submit" disabled={busy || label.trim() === ''} data-testid="key-create">
          {busy ? 'Waiting for the signature…' : 'Create the key'}
        </button>
      </form>
      {rejected && (
        <p className="muted" data-testid="key-create-rejected">
          No key made: you rejected the message.
        </p>
      )}
      {failure && <ErrorPanel title="Could not create the key" error={failure} />}
    </section>
  );
}
