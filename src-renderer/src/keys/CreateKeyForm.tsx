import { Plus } from 'lucide-react';
import { useId, useState } from 'react';
import type { Address } from 'viem';
import { formatExact } from '../../../src-shared/format/numbers';
import { ErrorPanel } from '../components/ErrorPanel';
import { failureOf } from '../failureOf';
import { Button } from '../ui/Button';
import { Card } from '../ui/Card';
import { Field } from '../ui/Field';
import { appChannelAvailable } from '../wallet/appChannel';
import type { WalletFailure } from '../wallet/walletStore';
import { createApiKey } from './createApiKey';
import { type CreatedKey, type KeyBudget, MAX_KEY_BUDGET, MAX_KEY_LABEL_CHARS } from './keysApi';

/** What the budget fields start at: room for a bot that quotes every block and buys a few launches a minute. */
const SUGGESTED = { quotes: '600', builds: '120' };

/** A field's whole number of requests a minute, or why it is not one. */
function perMinute(text: string, what: string): number | string {
  if (!/^\d+$/.test(text.trim())) return `Enter a whole number of ${what} a minute.`;
  const value = Number(text.trim());
  if (value < 1 || value > MAX_KEY_BUDGET) return `From 1 to ${formatExact(BigInt(MAX_KEY_BUDGET), 0)} a minute.`;
  return value;
}

/**
 * A label and one signed message make a key; the label tells keys apart in the list later. The app's owner may give
 * the key a rate budget of its own (only the app can: it sends the run's token), which its bot then spends instead of
 * the limits of the address it calls from.
 */
export function CreateKeyForm({ wallet, onCreated }: { wallet: Address; onCreated: (key: CreatedKey) => void }) {
  const id = useId();
  const [label, setLabel] = useState('');
  const [budgeted, setBudgeted] = useState(false);
  const [quotes, setQuotes] = useState(SUGGESTED.quotes);
  const [builds, setBuilds] = useState(SUGGESTED.builds);
  const [busy, setBusy] = useState(false);
  const [rejected, setRejected] = useState(false);
  const [failure, setFailure] = useState<WalletFailure | null>(null);

  const quotesRead = perMinute(quotes, 'quotes');
  const buildsRead = perMinute(builds, 'builds');
  const budget: KeyBudget | undefined =
    budgeted && typeof quotesRead === 'number' && typeof buildsRead === 'number'
      ? { quotesPerMinute: quotesRead, buildsPerMinute: buildsRead }
      : undefined;
  const budgetReady = !budgeted || budget !== undefined;

  async function create() {
    setBusy(true);
    setRejected(false);
    setFailure(null);
    try {
      const created = await createApiKey(wallet, label, budget);
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
        className="flex flex-col gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          void create();
        }}
      >
        <div className="flex flex-wrap items-end gap-3">
          <Field label="Label" htmlFor={`${id}-label`} className="min-w-64 flex-1">
            <input
              id={`${id}-label`}
              value={label}
              maxLength={MAX_KEY_LABEL_CHARS}
              placeholder="the bot that will use it"
              onChange={(event) => setLabel(event.target.value)}
              data-testid="key-label"
            />
          </Field>
          <Button
            type="submit"
            variant="primary"
            icon={<Plus size={16} aria-hidden="true" />}
            disabled={busy || label.trim() === '' || !budgetReady}
            testId="key-create"
          >
            {busy ? 'Waiting for the signature…' : 'Create the key'}
          </Button>
        </div>
        {appChannelAvailable && (
          <fieldset className="flex flex-col gap-3 rounded-lg border border-line px-3 pt-1 pb-3">
            <legend className="px-1 text-[0.8125rem] font-medium">Rate budget</legend>
            <label className="flex items-center gap-2">
              <input
                type="checkbox"
                checked={budgeted}
                onChange={(event) => setBudgeted(event.target.checked)}
                data-testid="key-budget-on"
              />
              Give this key a budget of its own
            </label>
            {budgeted ? (
              <div className="flex flex-wrap items-start gap-3">
                <Field
                  label="Quotes a minute"
                  htmlFor={`${id}-quotes`}
                  className="w-44"
                  error={typeof quotesRead === 'string' ? quotesRead : undefined}
                  errorTestId="key-budget-quotes-error"
                >
                  <input
                    id={`${id}-quotes`}
                    inputMode="numeric"
                    value={quotes}
                    onChange={(event) => setQuotes(event.target.value)}
                    data-testid="key-budget-quotes"
                  />
                </Field>
                <Field
                  label="Builds a minute"
                  htmlFor={`${id}-builds`}
                  className="w-44"
                  error={typeof buildsRead === 'string' ? buildsRead : undefined}
                  errorTestId="key-budget-builds-error"
                >
                  <input
                    id={`${id}-builds`}
                    inputMode="numeric"
                    value={builds}
                    onChange={(event) => setBuilds(event.target.value)}
                    data-testid="key-budget-builds"
                  />
                </Field>
                <p className="min-w-64 flex-1 self-center text-xs text-muted">
                  The bot's quotes and builds count against this budget instead of the limits of the address it calls
                  from, so it is not held back by other programs on this computer. Set once, when the key is made.
                </p>
              </div>
            ) : (
              <p className="text-xs text-muted">
                Without one, the key shares the limits of the address it calls from: it adds no allowance.
              </p>
            )}
          </fieldset>
        )}
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
