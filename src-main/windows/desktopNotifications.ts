import type { Notification } from 'electron';
import type { Alert } from '../services/alerts/alerts';

/** Electron's Notification class, as main uses it (tests could pass another). */
type NotificationClass = Pick<typeof Notification, 'isSupported'> &
  (new (options: {
    title: string;
    body: string;
  }) => Pick<Notification, 'on' | 'show'>);

/**
 * Shows each alert the service raises as a desktop notification from main; a click opens the page it is about in the
 * window, focused (`open`). Each shown notification is held until it is clicked or closed: one no longer referenced
 * can be collected, and its click is then never heard.
 */
export function showAlertsOnDesktop(
  alerts: { listen(listener: (alert: Alert) => void): () => void },
  NotificationOf: NotificationClass,
  open: (path: string) => void,
): () => void {
  const shown = new Set<Pick<Notification, 'on' | 'show'>>();
  return alerts.listen((alert) => {
    if (!NotificationOf.isSupported()) return;
    const note = new NotificationOf({ title: alert.title, body: alert.body });
    shown.add(note);
    note.on('click', () => {
      shown.delete(note);
      open(alert.path);
    });
    note.on('close', () => shown.delete(note));
    note.show();
  });
}
