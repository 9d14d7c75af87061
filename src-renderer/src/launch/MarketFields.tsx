import type { Settings } from '../api/settings';
import { FieldError } from './FieldError';
import { LaunchField } from './LaunchField';
import type { LaunchProblem } from './launchBody';
import { type CapUnit, useLaunchForm } from './launchForm';

const CAP_FIELDS = ['marketCapPair', 'marketCapUsd'] as const;

/** Where the token opens: its pair currency, opening market cap (in dollars or in the pair), supply and fee tier. */
export function MarketFields({
  settings,
  problems,
  pairSymbol,
}: {
  settings: Settings;
  problems: Record<string, LaunchProblem>;
  pairSymbol: string;
}) {
  const draft = useLaunchForm((s) => s.draft);
  const edit = useLaunchForm((s) => s.edit);
  const units: { value: CapUnit; label: string }[] = [
    { value: 'pair', label: `in ${pairSymbol}` },
    { value: 'usd', label: 'in USD' },
  ];
  return (
    <fieldset className="launch-section">
      <legend>Market</legend>
      <div className="launch-grid">
        <div className="launch-field">
          <label>
            <span className="launch-label">Pair currency</span>
            <select
              value={draft.pair}
              onChange={(event) => edit({ pair: event.target.value })}
              data-testid="launch-pair"
            >
              {settings.pairs.map((pair) => (
                <option key={pair.address} value={pair.native ? 'BNB' : pair.address}>
                  {pair.symbol}
                </option>
              ))}
              <option value="other">Another BEP20 token…</option>
            </select>
          </label>
          {draft.pair === 'other' && (
            <input
              className="launch-address"
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
        <div className="launch-field">
          <label>
            <span className="launch-label">Pool fee tier</span>
            <select
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
          </label>
          <FieldError fields={['feeTier']} problems={problems} testId="launch-fee-tier-error" />
        </div>
      </div>
      <div className="launch-grid">
        <LaunchField
          label={`Opening market cap ${draft.capUnit === 'usd' ? 'in USD' : `in ${pairSymbol}`}`}
          value={draft.marketCap}
          onChange={(marketCap) => edit({ marketCap })}
          testId="launch-market-cap"
          fields={CAP_FIELDS}
          problems={problems}
          inputMode="decimal"
          placeholder="0.0"
          after={
            <fieldset className="segmented launch-toggle">
              <legend className="launch-visually-hidden">Market cap unit</legend>
              {units.map((unit) => (
                <button
                  key={unit.value}
                  type="button"
                  aria-pressed={draft.capUnit === unit.value}
                  className={draft.capUnit === unit.value ? 'segmented-on' : undefined}
                  onClick={() => edit({ capUnit: unit.value })}
                  data-testid={`launch-cap-unit-${unit.value}`}
                >
                  {unit.label}
                </button>
              ))}
            </fieldset>
          }
        />
        <LaunchField
          label="Supply (whole tokens)"
          value={draft.supply ?? settings.launch.defaultSupply}
          onChange={(supply) => edit({ supply })}
          testId="launch-supply"
          fields={['supply']}
          problems={problems}
          inputMode="numeric"
        />
      </div>
      {draft.capUnit === 'usd' && (
        <p className="muted">
          A dollar cap needs a live dollar price of the pair; without one, give the cap in the pair.
        </p>
      )}
    </fieldset>
  );
}
