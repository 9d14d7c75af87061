import { useNotificationPermission } from './webNotifications';

/**
 * One clear line when this browser will not show the app's notifications (it refused, or has none); nothing when it
 * will, when it has not been asked yet, or inside the desktop app (where main shows them).
 */
export function NotificationPermissionLine() {
  const state = useNotificationPermission((store) => store.state);
  if (state !== 'denied') return null;
  return (
    <p
      role="status"
      data-testid="notifications-blocked"
      className="mb-4 rounded-lg border border-warn/40 bg-warn-soft px-3 py-2 text-sm text-fg"
    >
      <strong className="font-semibold">This browser blocks notifications from this page.</strong> Alerts still show
      here and on the Watchlist; to get them as notifications, allow notifications for this site in the browser's site
      settings (the icon left of the address), then reload.
    </p>
  );
}
