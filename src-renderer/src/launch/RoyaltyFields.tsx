import { FieldError } from './FieldError';
import type { LaunchProblem } from './launchBody';
import { type RoyaltyMode, useLaunchForm } from './launchForm';

const MODES: { value: RoyaltyMode; label: string }[] = [
  { value: 'keep', label: 'Paid to my wallet' },
  { value: 'burn', label: 'Partly or wholly bought back and burned' },
  { value: 'to', label: 'Paid to another wallet' },
];

/**
 * Where the creator royalty (the pool's trading fees) goes. A burn share and another wallet exclude each other
 * (CONFLICTING_ROYALTY), so the person picks one.
 */
export function RoyaltyFields({ problems }: { problems: Record<string, LaunchProblem> }) {
  const draft = useLaunchForm((s) => s.draft);
  const edit = useLaunchForm((s) => s.edit);
  return (
    <fieldset className="launch-section" data-testid="launch-royalty" data-mode={draft.royalty}>
      <legend>Royalty</legend>
      {MODES.map((mode) => (
        <label key={mode.value} className="launch-check">
          <input
            type="radio"
            name="launch-royalty"
            checked={draft.royalty === mode.value}
            onChange={() => edit({ royalty: mode.value })}
            data-testid={`launch-royalty-${mode.value}`}
          />{' '}
          {mode.label}
        </label>
      ))}
      {draft.royalty === 'burn' && (
        <p>
          <label>
            Share burned{' '}
            <input
              className="launch-pct"
              inputMode="decimal"
              value={draft.burnPct}
              onChange={(event) => edit({ burnPct: event.target.value })}
              data-testid="launch-burn-pct"
            />
            % <span className="muted">(the rest is paid to your wallet)</span>
          </label>
        </p>
      )}
      {draft.royalty === 'to' && (
        <p>
          <input
            className="launch-address"
            value={draft.royaltyTo}
            placeholder="0x… wallet"
            autoComplete="off"
            aria-label="Royalty wallet"
            onChange={(event) => edit({ royaltyTo: event.target.value })}
            data-testid="launch-royalty-to"
          />
        </p>
      )}
      <FieldError fields={['burnPct', 'royaltyTo']} problems={problems} testId="launch-royalty-error" />
    </fieldset>
  );
}
