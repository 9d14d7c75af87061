import { useDollars } from '../api/dollars';
import type { Settings } from '../api/settings';
import { cn } from '../ui/cn';
import { FieldError } from './FieldError';
import { LaunchField } from './LaunchField';
import type { LaunchProblem } from './launchBody';
import { type CapUnit, useLaunchForm } from './launchForm';
import { capOf, convertCap, pairOf } from './marketCap';
import { capText } from './shapeScale';

const CAP_FIELDS = ['marketCapPair', 'marketCapUsd'] as const;

/**
 * The cap's unit, the pair or dollars. Switching converts the typed cap at the service's dollar price of the pair, so
 * the cap stays what it was; without a price the dollar unit is off, and says why.
 */
function CapUnitSwitch({
  unit,
  pairSymbol,
  usdPerUnit,
  onSwitch,
}: {
  unit: CapUnit;
  pairSymbol: string;
  usdPerUnit: number | null;
  onSwitch: (unit: CapUnit) => void;
}) {
  const noPrice = `The app has no dollar price of ${pairSymbol} here: give the cap in ${pairSymbol}.`;
  const options: { value: CapUnit; label: string; disabled: boolean }[] = [
    { value: 'pair', label: pairSymbol, disabled: false },
    { value: 'usd', label: 'USD', disabled: usdPerUnit === null && unit !== 'usd' },
  ];
  return (
    <fieldset aria-label="Market cap unit" className="inline-flex rounded-lg border-0 bg-raised p-0.5">
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          aria-pressed={unit === option.value}
          disabled={option.disabled}
          title={option.disabled ? noPrice : undefined}
          onClick={() => onSwitch(option.value)}
          className={cn(
            'cursor-pointer rounded-md px-2 py-0.5 text-xs font-semibold transition-colors disabled:cursor-not-allowed disabled:opacity-50',
            unit === option.value ? 'bg-surface text-fg shadow-sm' : 'text-muted hover:text-fg',
          )}
          data-testid={`launch-cap-unit-${option.value}`}
        >
          {option.label}
        </button>
      ))}
    </fieldset>
  );
}

/** Where the token opens: its pair currency, opening market cap (in dollars or in the pair), supply and fee tier. */
export function MarketFields({ settings, problems }: { settings: Settings; problems: Record<string, LaunchProblem> }) {
  const draft = useLaunchForm((s) => s.draft);
  const edit = useLaunchForm((s) => s.edit);
  const { usdPerUnit } = useDollars();
  const pair = pairOf(draft, settings);
  const cap = capOf(draft, settings, usdPerUnit);
  const switchUnit = (unit: CapUnit) => {
    if (unit === draft.capUnit) return;
    const marketCap =
      cap.usdPerUnit === null
        ? draft.marketCap
        : convertCap(draft.marketCap, draft.capUnit, unit, cap.usdPerUnit, pair.decimals);
    edit({ capUnit: unit, marketCap });
  };
  const other =
    draft.capUnit === 'usd'
      ? cap.pair !== null && `≈ ${capText(cap.pair, pair.symbol)}`
      : cap.usd !== null && `≈ ${capText(cap.usd, '$')}`;
  return (
    <div className="flex flex-col gap-4">
      <div className="grid grid-cols-2 gap-4">
        <div className="flex min-w-0 flex-col gap-1.5">
          <label className="text-[0.8125rem] font-medium" htmlFor="launch-pair">
            Pair currency
          </label>
          <select
            id="launch-pair"
            value={draft.pair}
            onChange={(event) => edit({ pair: event.target.value })}
            data-testid="launch-pair"
          >
            {settings.pairs.map((p) => (
              <option key={p.address} value={p.native ? 'BNB' : p.address}>
                {p.symbol}
              </option>
            ))}
            <option value="other">Another BEP20 token…</option>
          </select>
          {draft.pair === 'other' && (
            <input
              className="font-mono text-sm"
              value={draft.otherPair}
              placeholder="0x… token address"
              autoComplete="off"
              aria-label="Pair token address"
              onChange={(event) => edit({ otherPair: event.target.value })}
              data-testid="launch-pair-address"
            />
          )}
          <FieldError fields={['pair']} problems={problems} testId="launch-pair-error" />
        </div>
        <div className="flex min-w-0 flex-col gap-1.5">
          <label className="text-[0.8125rem] font-medium" htmlFor="launch-fee-tier">
            Pool fee tier
          </label>
          <select
            id="launch-fee-tier"
            value={draft.feeTier ?? settings.launch.defaultFeeTier}
            onChange={(event) => edit({ feeTier: Number(event.target.value) })}
            data-testid="launch-fee-tier"
          >
            {settings.launch.feeTiers.map((tier) => (
              <option key={tier.bps} value={tier.bps}>
                {tier.label}
                {tier.bps === settings.launch.defaultFeeTier ? ' (default)' : ''}
              </option>
            ))}
          </select>
          <FieldError fields={['feeTier']} problems={problems} testId="launch-fee-tier-error" />
        </div>
      </div>
      <div className="grid grid-cols-2 gap-4">
        <LaunchField
          label={`Opening market cap, in ${draft.capUnit === 'usd' ? 'USD' : pair.symbol}`}
          value={draft.marketCap}
          onChange={(marketCap) => edit({ marketCap })}
          testId="launch-market-cap"
          fields={CAP_FIELDS}
          problems={problems}
          inputMode="decimal"
          placeholder={draft.capUnit === 'usd' ? '25000' : '30'}
          aside={
            <CapUnitSwitch
              unit={draft.capUnit}
              pairSymbol={pair.symbol}
              usdPerUnit={cap.usdPerUnit}
              onSwitch={switchUnit}
            />
          }
          hint={
            <span data-testid="launch-cap-other">
              {other ||
                (cap.usdPerUnit === null
                  ? `No dollar price of ${pair.symbol} here: the cap is given in ${pair.symbol}.`
                  : 'What the whole supply is worth at the opening price.')}
            </span>
          }
        />
        <LaunchField
          label="Supply, whole tokens"
          value={draft.supply ?? settings.launch.defaultSupply}
          onChange={(supply) => edit({ supply })}
          testId="launch-supply"
          fields={['supply']}
          problems={problems}
          inputMode="numeric"
          hint={supplyHint(draft.supply ?? settings.launch.defaultSupply)}
        />
      </div>
    </div>
  );
}

/** The supply with separators, since 1000000000 is hard to count. */
function supplyHint(text: string): string {
  const trimmed = text.trim();
  return /^\d{4,}$/.test(trimmed)
    ? `${BigInt(trimmed).toLocaleString('en-US')} tokens`
    : 'From 1 to 1,000,000,000,000.';
}
