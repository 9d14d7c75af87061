import type { AppInfo } from '../../../src-shared/appChannelTypes';
import { ErrorPanel } from '../components/ErrorPanel';
import { Card } from '../ui/Card';
import { Switch } from '../ui/Switch';
import { useBusyAction } from '../ui/useBusyAction';
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
  const on = info.thirdPartyFetches;
  const { busy, failure, run } = useBusyAction();
  const toggle = () => run(() => chooseLogos(!on));

  return (
    <Card testId="logos-switch-card">
      <Switch
        label="Show logos of tokens other people launched"
        description={`${WHAT_A_FETCH_REVEALS} Logos of your own launches are stored on this computer and always show.`}
        on={on}
        busy={busy}
        testId="settings-third-party-fetches"
        onToggle={() => void toggle()}
      />
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
