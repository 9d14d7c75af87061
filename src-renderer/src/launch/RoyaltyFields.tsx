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
    <fieldset className="flex flex-col gap-2" data-testid="launch-royalty" data-mode={draft.royalty}>
      <legend className="mb-2 text-[0.8125rem] font-medium">
        The creator royalty <span className="font-normal text-muted">(the pool's trading fees)</span>
      </legend>
      {MODES.map((mode) => (
        <label key={mode.value} className="flex items-center gap-2 text-sm">
          <input
            type="radio"
            name="launch-royalty"
            checked={draft.royalty === mode.value}
            onChange={() => edit({ royalty: mode.value })}
            data-testid={`launch-royalty-${mode.value}`}
          />
          {mode.label}
        </label>
      ))}
      {draft.royalty === 'burn' && (
        <p className="pl-6 text-sm">
          <label>
            Share burned{' '}
            <input
              className="w-20 text-right"
              inputMode="decimal"
              value={draft.burnPct}
              onChange={(event) => edit({ burnPct: event.target.value })}
              data-testid="launch-burn-pct"
            />
            % <span className="text-muted">(the rest is paid to your wallet)</span>
          </label>
        </p>
      )}
      {draft.royalty === 'to' && (
        <p className="pl-6">
          <input
            className="w-[26rem] max-w-full font-mono text-sm"
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
