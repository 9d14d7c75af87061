import { LaunchField } from './LaunchField';
import type { LaunchProblem } from './launchBody';
import { useLaunchForm } from './launchForm';

/** Name and symbol (written into the token) and the details stored with its logo. */
export function DetailsFields({ problems }: { problems: Record<string, LaunchProblem> }) {
  const draft = useLaunchForm((s) => s.draft);
  const edit = useLaunchForm((s) => s.edit);
  return (
    <fieldset className="launch-section">
      <legend>Token</legend>
      <div className="launch-grid">
        <LaunchField
          label="Name (up to 64 bytes)"
          value={draft.name}
          onChange={(name) => edit({ name })}
          testId="launch-name"
          fields={['name']}
          problems={problems}
          placeholder="Moon Cat"
        />
        <LaunchField
          label="Symbol (up to 32 bytes)"
          value={draft.symbol}
          onChange={(symbol) => edit({ symbol })}
          testId="launch-symbol"
          fields={['symbol']}
          problems={problems}
          placeholder="MCAT"
        />
      </div>
      <LaunchField
        label="Description"
        value={draft.description}
        onChange={(description) => edit({ description })}
        testId="launch-description"
        fields={['description']}
        problems={problems}
        multiline
      />
      <div className="launch-grid">
        <LaunchField
          label="Website"
          value={draft.website}
          onChange={(website) => edit({ website })}
          testId="launch-website"
          fields={['website']}
          problems={problems}
          inputMode="url"
          placeholder="https://"
        />
        <LaunchField
          label="X"
          value={draft.x}
          onChange={(x) => edit({ x })}
          testId="launch-x"
          fields={['x']}
          problems={problems}
          placeholder="https://x.com/…"
        />
        <LaunchField
          label="Telegram"
          value={draft.telegram}
          onChange={(telegram) => edit({ telegram })}
          testId="launch-telegram"
          fields={['telegram']}
          problems={problems}
          placeholder="https://t.me/…"
        />
      </div>
    </fieldset>
  );
}
