import { useId, useState } from 'react';
import type { AppInfo } from '../../../src-shared/appChannelTypes';
import type { ApiError } from '../api/apiRequestError';
import { ErrorPanel } from '../components/ErrorPanel';
import { failureOf } from '../failureOf';
import { Card } from '../ui/Card';
import { cn } from '../ui/cn';
import { chooseLogos, WHAT_A_FETCH_REVEALS } from './logosChoice';

/** What the switch's state means, in one line under it. */
function stateText(info: AppInfo): string {
  if (info.thirdPartyFetches) return "On: logos are downloaded from their launchers' servers.";
  if (!info.thirdPartyFetchesChosen) return 'Off until you choose: nothing is downloaded from other servers.';
  return "Off: nothing is downloaded from launchers' servers; their tokens show a badge with their symbol.";
}

/**
 * The Settings switch for other people's logos: main applies a change at once (off stops every download from now
 * on; on looks for the logos that waited) and keeps it for the next starts.
 */
export function LogosSwitch({ info }: { info: AppInfo }) {
  const id = useId();
  const on = info.thirdPartyFetches;
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<ApiError | null>(null);

  const toggle = async () => {
    setBusy(true);
    setFailure(null);
    try {
      await chooseLogos(!on);
    } catch (cause) {
      setFailure(failureOf(cause));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card testId="logos-switch-card">
      <div className="flex items-start justify-between gap-4">
        <div className="min-w-0">
          <label htmlFor={`${id}-switch`} className="font-medium">
            Show logos of tokens other people launched
          </label>
          <p id={`${id}-what`} className="mt-1 text-muted">
            {WHAT_A_FETCH_REVEALS} Logos of your own launches are stored on this computer and always show.
          </p>
        </div>
        <button
          id={`${id}-switch`}
          type="button"
          role="switch"
          aria-checked={on}
          aria-describedby={`${id}-what`}
          disabled={busy}
          onClick={() => void toggle()}
          data-testid="settings-third-party-fetches"
          className={cn(
            'relative mt-0.5 inline-flex h-6 w-11 shrink-0 cursor-pointer items-center rounded-full border transition-colors duration-150 disabled:cursor-wait disabled:opacity-60',
            on ? 'border-transparent bg-primary' : 'border-line-strong bg-raised',
          )}
        >
          <span
            aria-hidden="true"
            className={cn(
              'inline-block size-4.5 rounded-full shadow-sm transition-transform duration-150',
              on ? 'translate-x-5.5 bg-primary-fg' : 'translate-x-0.5 bg-muted',
            )}
          />
        </button>
      </div>
      <p className="mt-3 border-t border-line pt-3 text-xs" data-testid="logos-switch-state">
        <strong className="font-semibold">{stateText(info)}</strong>{' '}
        <span className="text-muted">
          {info.settingsFile
            ? 'Applies at once, and is kept for the next starts.'
            : 'Applies at once; this run keeps no settings, so the next start asks again unless a flag sets it.'}
        </span>
      </p>
      {failure && <ErrorPanel title="The change was not applied" error={failure} />}
    </Card>
  );
}
