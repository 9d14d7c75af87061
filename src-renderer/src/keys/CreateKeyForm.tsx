import { Plus } from 'lucide-react';
import { useId, useState } from 'react';
import type { Address } from 'viem';
import { ErrorPanel } from '../components/ErrorPanel';
import { failureOf } from '../failureOf';
import { Button } from '../ui/Button';
import { Card } from '../ui/Card';
import type { WalletFailure } from '../wallet/walletStore';
import { createApiKey } from './createApiKey';
import { type CreatedKey, MAX_KEY_LABEL_CHARS } from './keysApi';

/** A label and one signed message make a key; the label tells keys apart in the list later. */
export function CreateKeyForm({ wallet, onCreated }: { wallet: Address; onCreated: (key: CreatedKey) => void }) {
  const id = useId();
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
    <Card title="Create a key">
      <form
        className="flex flex-wrap items-end gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          void create();
        }}
      >
        <div className="flex min-w-64 flex-1 flex-col gap-1.5">
          <label htmlFor={`${id}-label`} className="text-[0.8125rem] font-medium">
            Label
          </label>
          <input
            id={`${id}-label`}
            value={label}
            maxLength={MAX_KEY_LABEL_CHARS}
            placeholder="the bot that will use it"
            onChange={(event) => setLabel(event.target.value)}
            data-testid="key-label"
          />
        </div>
        <Button
          type="submit"
          variant="primary"
          icon={<Plus size={16} aria-hidden="true" />}
          disabled={busy || label.trim() === ''}
          testId="key-create"
        >
          {busy ? 'Waiting for the signature…' : 'Create the key'}
        </Button>
      </form>
      <p className="mt-2 text-xs text-muted">
        A bot sends the key in the x-api-key header; trades it builds pay you as their default referrer. Creating one is
        a message to sign: no gas, and it moves nothing.
      </p>
      {rejected && (
        <p className="mt-2 text-muted" data-testid="key-create-rejected">
          No key made: you rejected the message.
        </p>
      )}
      {failure && <ErrorPanel title="Could not create the key" error={failure} />}
    </Card>
  );
}
