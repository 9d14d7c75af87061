import { useEffect } from 'react';
import { create } from 'zustand';
import type { Route } from './routes';

export const APP_NAME = 'Launchpad Companion';

/** What each page is called in the window's title (and the taskbar, and the browser's history). */
const PAGE_TITLES: Record<Route['page'], string> = {
  launches: 'Launches',
  token: 'Token',
  launch: 'Launch a token',
  referrals: 'Referrals',
  keys: 'API keys',
  requests: 'Requests',
  activity: 'Activity',
  portfolio: 'Portfolio',
  inspect: 'Inspect',
  creator: 'Your launches',
  settings: 'Settings',
  watchlist: 'Watchlist',
  'not-found': 'Page not found',
};

/** A name only the page itself learns once its data loads (a token's symbol), which then replaces the generic one. */
const useSubject = create<{ subject: string | null }>()(() => ({ subject: null }));

/** Names the open page after `subject` (e.g. a token's symbol) while it is shown; null keeps the page's own name. */
export function useTitleSubject(subject: string | null): void {
  useEffect(() => {
    useSubject.setState({ subject });
    return () => useSubject.setState({ subject: null });
  }, [subject]);
}

/** Sets `document.title` to "<page> · Launchpad Companion" for the route, e.g. "OWL · Launchpad Companion". */
export function useDocumentTitle(route: Route): void {
  const subject = useSubject((s) => s.subject);
  const title = `${subject ?? PAGE_TITLES[route.page]} · ${APP_NAME}`;
  useEffect(() => {
    document.title = title;
  }, [title]);
}
