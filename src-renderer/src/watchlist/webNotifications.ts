import { useEffect } from 'react';
import { create } from 'zustand';
import { useRouter } from '../router/routes';
import { appChannelAvailable } from '../wallet/appChannel';
import { fetchAlerts } from './watchlistApi';

/**
 * The web UI's notifications, shown with the browser's Notification API. The service decides what deserves one (the
 * same feed main shows on the desktop); this page only shows what it reads there. Inside Electron main shows them
 * itself, so the page shows none.
 */

/** What the browser lets this page do: `unsupported` without the API (or inside the desktop app, where main shows them). */
export type NotificationPermissionState = NotificationPermission | 'unsupported';

/** How often the page asks the service for alerts raised since the last it saw. */
const POLL_MS = 1500;

const browserShows = (): boolean => !window.companion && 'Notification' in window;

const permissionNow = (): NotificationPermissionState => (browserShows() ? Notification.permission : 'unsupported');

export const useNotificationPermission = create<{ state: NotificationPermissionState }>()(() => ({
  state: permissionNow(),
}));

/**
 * Asks the browser for permission once it is first needed (a star, a kind switched on); a browser that refused
 * already is not asked again (it would not show the question), and the page says so.
 */
export async function askNotificationPermission(): Promise<NotificationPermissionState> {
  if (!browserShows()) return 'unsupported';
  if (Notification.permission === 'default') {
    try {
      await Notification.requestPermission();
    } catch {
      // An old browser's callback form, or a refusal thrown: the permission read below says where it stands.
    }
  }
  const state = permissionNow();
  useNotificationPermission.setState({ state });
  return state;
}

/**
 * Shows the service's alerts as the browser's notifications while the page is open with the app's token (the feed is
 * the app's own); a click brings the tab forward and opens the page the alert is about. Only alerts raised after
 * the page opened are shown.
 */
export function useWebNotifications(): void {
  const navigate = useRouter((store) => store.navigate);
  useEffect(() => {
    if (!browserShows() || !appChannelAvailable) return;
    let after: number | null = null;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      // Offline, as the browser knows it: no request that can only fail (and log a failed load) until it is back.
      if (!navigator.onLine) {
        timer = setTimeout(() => void poll(), POLL_MS);
        return;
      }
      try {
        const feed = await fetchAlerts(after ?? undefined);
        if (stopped) return;
        if (after !== null && Notification.permission === 'granted') {
          for (const alert of feed.alerts) {
            const note = new Notification(alert.title, { body: alert.body, tag: `alert-${alert.id}` });
            note.onclick = () => {
              window.focus();
              navigate(alert.path);
              note.close();
            };
          }
        }
        after = feed.latest;
      } catch {
        // The service is away for a moment (a restart): the next poll asks again from where it was.
      }
      if (!stopped) timer = setTimeout(() => void poll(), POLL_MS);
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [navigate]);
}
