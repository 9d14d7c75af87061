import { describe, expect, it } from 'vitest';
import type { Alert } from '../services/alerts/alerts';
import { showAlertsOnDesktop } from './desktopNotifications';

/** Stands in for Electron's Notification: records what was shown and lets the test click or close it. */
function fakeNotifications(supported: boolean) {
  const shown: FakeNote[] = [];
  class FakeNote {
    private readonly handlers = new Map<string, () => void>();
    constructor(readonly options: { title: string; body: string }) {}
    static isSupported = () => supported;
    on(event: string, handler: () => void) {
      this.handlers.set(event, handler);
      return this;
    }
    show() {
      shown.push(this);
    }
    fire(event: 'click' | 'close') {
      this.handlers.get(event)?.();
    }
  }
  return { FakeNote, shown };
}

function feed() {
  const listeners = new Set<(alert: Alert) => void>();
  return {
    listen(listener: (alert: Alert) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    raise(alert: Alert) {
      for (const listener of listeners) listener(alert);
    },
  };
}

const ALERT: Alert = { id: 1, at: 0, kind: 'launch', title: 'OWL launched', body: 'Night Owl', path: '/token/0x01' };

describe('desktop notifications', () => {
  it('shows each alert and opens its page when clicked; stops with what it returned', () => {
    const { FakeNote, shown } = fakeNotifications(true);
    const alerts = feed();
    const opened: string[] = [];
    const stop = showAlertsOnDesktop(alerts, FakeNote as never, (path) => opened.push(path));
    alerts.raise(ALERT);
    expect(shown.map((note) => note.options)).toEqual([{ title: 'OWL launched', body: 'Night Owl' }]);
    expect(opened).toEqual([]);
    shown[0]?.fire('click');
    expect(opened).toEqual(['/token/0x01']);
    stop();
    alerts.raise(ALERT);
    expect(shown).toHaveLength(1);
  });

  it('shows none where the system has no notifications', () => {
    const { FakeNote, shown } = fakeNotifications(false);
    const alerts = feed();
    showAlertsOnDesktop(alerts, FakeNote as never, () => {});
    alerts.raise(ALERT);
    expect(shown).toEqual([]);
  });
});
