import { useId, useState } from 'react';
import type { AppInfo } from '../../../src-shared/appChannelTypes';
import type { ApiError } from '../api/apiRequestError';
import { ErrorPanel } from '../components/ErrorPanel';
import { failureOf } from '../failureOf';
import { Card } from '../ui/Card';
import { Switch } from '../ui/Switch';
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
        <Switch
          id={`${id}-switch`}
          on={on}
          busy={busy}
          describedBy={`${id}-what`}
          testId="settings-third-party-fetches"
          onToggle={() => void toggle()}
        />
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
