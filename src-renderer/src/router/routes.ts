import { create } from 'zustand';

/** The app's pages: the service's APP_PAGES (which referral links may point at) and the offline inspector. */
export type Route =
  | { page: 'launches' }
  | { page: 'launch' }
  | { page: 'token'; address: string }
  | { page: 'referrals' }
  | { page: 'keys' }
  | { page: 'requests' }
  | { page: 'activity' }
  | { page: 'portfolio' }
  | { page: 'settings' }
  | { page: 'watchlist' }
  | { page: 'inspect' }
  | { page: 'creator' }
  | { page: 'not-found'; path: string };

const SIMPLE = new Set([
  'launches',
  'launch',
  'referrals',
  'keys',
  'requests',
  'activity',
  'settings',
  'inspect',
  'watchlist',
  'creator',
  'portfolio',
]);

/** The route of a path: '/' is the launches list; '/token/0x…' a token page. */
export function routeOf(pathname: string): Route {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/') return { page: 'launches' };
  const token = /^\/token\/(0x[0-9a-fA-F]{40})$/.exec(path);
  if (token?.[1]) return { page: 'token', address: token[1] };
  const name = path.slice(1);
  if (SIMPLE.has(name)) return { page: name } as Route;
  return { page: 'not-found', path };
}

export function pathOf(route: Route): string {
  if (route.page === 'token') return `/token/${route.address}`;
  if (route.page === 'not-found') return route.path;
  return route.page === 'launches' ? '/' : `/${route.page}`;
}

interface RouterStore {
  route: Route;
  /** The query of the page's address (a referral link's `r`, for one). */
  query: URLSearchParams;
  navigate(path: string): void;
}

export const useRouter = create<RouterStore>()((set) => ({
  route: routeOf(location.pathname),
  query: new URLSearchParams(location.search),
  navigate(path) {
    const url = new URL(path, location.origin);
    if (url.origin !== location.origin) return;
    history.pushState(null, '', url.pathname + url.search);
    set({ route: routeOf(url.pathname), query: url.searchParams });
    window.scrollTo(0, 0);
  },
}));

window.addEventListener('popstate', () => {
  useRouter.setState({ route: routeOf(location.pathname), query: new URLSearchParams(location.search) });
});
