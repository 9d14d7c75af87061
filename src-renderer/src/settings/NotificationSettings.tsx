import { ErrorPanel } from '../components/ErrorPanel';
import { failureOf } from '../failureOf';
import { Card } from '../ui/Card';
import { Switch } from '../ui/Switch';
import { useBusyAction } from '../ui/useBusyAction';
import { appChannelAvailable } from '../wallet/appChannel';
import { NotificationPermissionLine } from '../watchlist/NotificationPermissionLine';
import { type AlertKind, switchAlertKinds, useAlertKinds } from '../watchlist/watchlistApi';
import { askNotificationPermission } from '../watchlist/webNotifications';
import { SettingsSection } from './SettingsSection';

const KINDS: { kind: AlertKind; label: string; what: string }[] = [
  {
    kind: 'request',
    label: "A bot's request waits for your signature",
    what: 'A bot on this computer prepared a trade, launch or claim for one of your wallets.',
  },
  { kind: 'launch', label: 'A creator you watch launches', what: 'Each new launch by a creator you starred.' },
  {
    kind: 'crossing',
    label: "A watched token crosses your alert's figure",
    what: 'Once per crossing of the price or market cap you set on the Watchlist.',
  },
  {
    kind: 'transaction',
    label: 'Your transaction is confirmed or fails',
    what: 'Trades, launches and claims this app sent for you.',
  },
];

function KindSwitch({ kind, label, what, on }: { kind: AlertKind; label: string; what: string; on: boolean }) {
  const { busy, failure, run } = useBusyAction();
  const toggle = () => {
    if (!on) void askNotificationPermission();
    return run(() => switchAlertKinds({ [kind]: !on }));
  };
  return (
    <li className="px-4 py-3" data-testid={`alert-kind-${kind}`}>
      <Switch
        label={label}
        description={what}
        on={on}
        busy={busy}
        testId={`alert-kind-${kind}-switch`}
        onToggle={() => void toggle()}
      />
      {failure && <ErrorPanel title="The change was not applied" error={failure} />}
    </li>
  );
}

/** Settings' Notifications: each kind switched on or off, kept by the service for the next starts. */
export function NotificationSettings() {
  const kinds = useAlertKinds();
  return (
    <SettingsSection
      id="notifications"
      title="Notifications"
      description="What this app tells you about while it runs. Clicking one opens the page it is about."
    >
      <NotificationPermissionLine />
      {kinds.error && (
        <ErrorPanel
          title="Could not read the notification settings"
          error={failureOf(kinds.error)}
          onRetry={() => void kinds.refetch()}
        />
      )}
      {kinds.data && (
        <Card flush testId="alert-kinds">
          <ul className="divide-y divide-line">
            {KINDS.map((entry) => (
              <KindSwitch key={entry.kind} {...entry} on={kinds.data[entry.kind]} />
            ))}
          </ul>
          {!appChannelAvailable && (
            <p className="border-t border-line px-4 py-3 text-sm text-muted">
              This page was opened without the app's token: it can read these but not change them.
            </p>
          )}
        </Card>
      )}
    </SettingsSection>
  );
}
