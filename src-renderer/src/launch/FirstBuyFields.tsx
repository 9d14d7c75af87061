import { formatUsd } from '../../../src-shared/format/numbers';
import { Button } from '../ui/Button';
import { FieldError } from './FieldError';
import { LaunchField } from './LaunchField';
import type { LaunchProblem } from './launchBody';
import { type SplitRow, useLaunchForm } from './launchForm';

/** The spec's cap on first-buy recipients. */
const MAX_ROWS = 20;

/** Adds up the shares as typed, in hundredths of a per cent, for the running total (the checks are in launchBody). */
function totalPct(rows: readonly SplitRow[]): string {
  let hundredths = 0;
  for (const row of rows) {
    const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(row.pct.trim());
    if (match) hundredths += Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  }
  return String(hundredths / 100);
}

/** A buy of the new token inside the launch transaction, optionally split among wallets, with its slippage. */
export function FirstBuyFields({
  problems,
  pairSymbol,
  usdPerUnit,
}: {
  problems: Record<string, LaunchProblem>;
  pairSymbol: string;
  /** Dollars per whole pair unit, for the buy's dollar value; null without a price. */
  usdPerUnit: number | null;
}) {
  const draft = useLaunchForm((s) => s.draft);
  const edit = useLaunchForm((s) => s.edit);
  const setRow = (index: number, patch: Partial<SplitRow>) =>
    edit({ split: draft.split.map((row, i) => (i === index ? { ...row, ...patch } : row)) });
  return (
    <div className="flex flex-col gap-3">
      <div className="grid grid-cols-[minmax(0,2fr)_minmax(0,1fr)] gap-4">
        <LaunchField
          label={`Amount in ${pairSymbol}`}
          value={draft.firstBuy}
          onChange={(firstBuy) => edit({ firstBuy })}
          testId="launch-first-buy"
          fields={['firstBuy']}
          problems={problems}
          inputMode="decimal"
          placeholder="none"
          hint={
            /^\d+(?:\.\d+)?$/.test(draft.firstBuy.trim()) && usdPerUnit !== null
              ? `≈ ${formatUsd(Number(draft.firstBuy.trim()) * usdPerUnit)}, bought in the launch transaction`
              : 'Optional: bought in the launch transaction, before anyone else.'
          }
        />
        <LaunchField
          label="Slippage (%)"
          value={draft.slippagePct}
          onChange={(slippagePct) => edit({ slippagePct })}
          testId="launch-slippage"
          fields={['slippagePct']}
          problems={problems}
          inputMode="decimal"
        />
      </div>
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={draft.splitOn}
          onChange={(event) => edit({ splitOn: event.target.checked })}
          data-testid="launch-split-on"
        />
        Send the bought tokens to other wallets (the dead address burns its share)
      </label>
      {draft.splitOn && (
        <div className="flex flex-col gap-2" data-testid="launch-split">
          {draft.split.map((row, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity of their own; a row is its position
            <div className="flex flex-wrap items-center gap-2" key={index} data-testid={`launch-split-row-${index}`}>
              <input
                className="w-[26rem] max-w-full font-mono text-sm"
                value={row.wallet}
                placeholder="0x… wallet"
                autoComplete="off"
                aria-label={`Recipient ${index + 1} wallet`}
                onChange={(event) => setRow(index, { wallet: event.target.value })}
                data-testid={`launch-split-wallet-${index}`}
              />{' '}
              <input
                className="w-20 text-right"
                value={row.pct}
                inputMode="decimal"
                aria-label={`Recipient ${index + 1} share, per cent`}
                onChange={(event) => setRow(index, { pct: event.target.value })}
                data-testid={`launch-split-pct-${index}`}
              />
              <span className="text-muted">%</span>
              {draft.split.length > 1 && (
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={() => edit({ split: draft.split.filter((_, i) => i !== index) })}
                  testId={`launch-split-remove-${index}`}
                >
                  Remove
                </Button>
              )}
              <FieldError
                fields={[`firstBuyTo[${index}].wallet`, `firstBuyTo[${index}].pct`]}
                problems={problems}
                testId={`launch-split-error-${index}`}
              />
            </div>
          ))}
          <div className="flex items-center gap-3">
            <Button
              size="sm"
              disabled={draft.split.length >= MAX_ROWS}
              onClick={() => edit({ split: [...draft.split, { wallet: '', pct: '' }] })}
              testId="launch-split-add"
            >
              Add a wallet
            </Button>
            <span className="text-sm text-muted tabular" data-testid="launch-split-total">
              Total {totalPct(draft.split)}%
            </span>
          </div>
          <FieldError fields={['firstBuyTo']} problems={problems} testId="launch-split-error" />
        </div>
      )}
    </div>
  );
}
