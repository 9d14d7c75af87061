import { useId, useState } from 'react';
import { ErrorPanel } from '../components/ErrorPanel';
import { Button } from '../ui/Button';
import { Segmented } from '../ui/Segmented';
import { useBusyAction } from '../ui/useBusyAction';
import { type AlertRule, type AlertRuleInput, watchToken } from './watchlistApi';
import { askNotificationPermission } from './webNotifications';

/**
 * The alert rule of one watched token: its price or market cap crossing a figure, above or below, in dollars or BNB.
 * Saving replaces the rule before; the service checks the figure and answers its own error (INVALID_BODY) with the fix.
 */
export function AlertRuleForm({
  token,
  symbol,
  rule,
  onDone,
}: {
  token: string;
  symbol: string;
  rule: AlertRule | null;
  onDone(): void;
}) {
  const id = useId();
  const [draft, setDraft] = useState<AlertRuleInput>(
    rule
      ? { metric: rule.metric, direction: rule.direction, currency: rule.currency, figure: rule.figure }
      : { metric: 'price', direction: 'above', currency: 'usd', figure: '' },
  );
  const { busy, failure, run } = useBusyAction();
  const save = async (alert: AlertRuleInput | null) => {
    if (alert) void askNotificationPermission();
    if (await run(() => watchToken(token, alert))) onDone();
  };
  const set = (change: Partial<AlertRuleInput>) => setDraft((before) => ({ ...before, ...change }));
  return (
    <form
      className="flex flex-col gap-3"
      data-testid="alert-form"
      onSubmit={(event) => {
        event.preventDefault();
        void save({ ...draft, figure: draft.figure.trim() });
      }}
    >
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-medium">Notify me when {symbol}'s</span>
        <Segmented
          label="What to watch"
          size="sm"
          value={draft.metric}
          onChange={(metric) => set({ metric })}
          options={[
            { value: 'price', label: 'price', testId: 'alert-metric-price' },
            { value: 'cap', label: 'market cap', testId: 'alert-metric-cap' },
          ]}
        />
        <Segmented
          label="Direction"
          size="sm"
          value={draft.direction}
          onChange={(direction) => set({ direction })}
          options={[
            { value: 'above', label: 'rises above', testId: 'alert-direction-above' },
            { value: 'below', label: 'falls below', testId: 'alert-direction-below' },
          ]}
        />
        <label htmlFor={`${id}-figure`} className="sr-only">
          Figure
        </label>
        <input
          id={`${id}-figure`}
          inputMode="decimal"
          autoComplete="off"
          placeholder={draft.currency === 'usd' ? '0.0005' : '0.000001'}
          value={draft.figure}
          onChange={(event) => set({ figure: event.target.value })}
          data-testid="alert-figure"
          className="w-36 tabular"
        />
        <Segmented
          label="Currency"
          size="sm"
          value={draft.currency}
          onChange={(currency) => set({ currency })}
          options={[
            { value: 'usd', label: 'USD', testId: 'alert-currency-usd' },
            { value: 'bnb', label: 'BNB', testId: 'alert-currency-bnb' },
          ]}
        />
      </div>
      <p className="text-xs text-muted">
        Fires once when it crosses; again only after it has come back past the figure by 1% and crossed once more.
      </p>
      <div className="flex flex-wrap gap-2">
        <Button
          type="submit"
          size="sm"
          variant="primary"
          disabled={busy || draft.figure.trim() === ''}
          testId="alert-save"
        >
          Save alert
        </Button>
        {rule && (
          <Button
            type="button"
            size="sm"
            variant="secondary"
            disabled={busy}
            onClick={() => void save(null)}
            testId="alert-remove"
          >
            Remove alert
          </Button>
        )}
        <Button type="button" size="sm" variant="ghost" disabled={busy} onClick={onDone} testId="alert-cancel">
          Cancel
        </Button>
      </div>
      {failure && <ErrorPanel title="The alert was not saved" error={failure} />}
    </form>
  );
}
