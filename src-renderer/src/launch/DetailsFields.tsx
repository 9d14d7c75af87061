import { LaunchField } from './LaunchField';
import type { LaunchProblem } from './launchBody';
import { useLaunchForm } from './launchForm';

/** Name and symbol (written into the token) and the details stored with its logo. */
export function DetailsFields({ problems }: { problems: Record<string, LaunchProblem> }) {
  const draft = useLaunchForm((s) => s.draft);
  const edit = useLaunchForm((s) => s.edit);
  return (
    <div className="flex flex-col gap-4">
      <div className="grid grid-cols-[minmax(0,2fr)_minmax(0,1fr)] gap-4">
        <LaunchField
          label="Name"
          value={draft.name}
          onChange={(name) => edit({ name })}
          testId="launch-name"
          fields={['name']}
          problems={problems}
          placeholder="Moon Cat"
        />
        <LaunchField
          label="Symbol"
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
        placeholder="What the token is about (optional)"
        multiline
      />
      <div className="grid grid-cols-3 gap-4">
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
    </div>
  );
}
