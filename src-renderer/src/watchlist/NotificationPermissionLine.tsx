import { cn } from '../ui/cn';
import { useNotificationPermission } from './webNotifications';

/**
 * One clear line when this browser will not show the app's notifications (it refused, or has none); nothing when it
 * will, when it has not been asked yet, or inside the desktop app (where main shows them).
 */
export function NotificationPermissionLine({ className }: { className?: string }) {
  const state = useNotificationPermission((store) => store.state);
  if (state !== 'denied') return null;
  return (
    <p
      role="status"
      data-testid="notifications-blocked"
      className={cn('rounded-lg border border-warn/40 bg-warn-soft px-3 py-2 text-sm text-fg', className)}
    >
      <strong className="font-semibold">This browser blocks notifications from this page,</strong> so the alerts
      switched on below and on the Watchlist cannot show. Allow notifications for this site in the browser's site
      settings (the icon left of the address), then reload the page.
    </p>
  );
}
