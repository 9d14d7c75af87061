/*
 * The pages of the app that links may open: referral links name one (GET /referrals/{address}/link's `path`, checked
 * by its schema), and the desktop app follows only these when the system hands it a link.
 */

/**
 * The pages of the app (its client-side routes), which referral links may point at. `{address}` stands for a 0x
 * address. The renderer's router is to serve exactly these.
 */
export const APP_PAGES = [
  '/',
  '/launches',
  '/launch',
  '/token/{address}',
  '/referrals',
  '/keys',
  '/requests',
  '/activity',
  '/portfolio',
  '/settings',
  '/watchlist',
] as const;

const PATTERNS = APP_PAGES.map(
  (page) =>
    new RegExp(`^${page.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace('\\{address\\}', '0x[0-9a-fA-F]{40}')}/?$`),
);

/** Whether a path (without query or fragment) is one of the app's pages. */
export function isAppPage(pathname: string): boolean {
  return PATTERNS.some((pattern) => pattern.test(pathname));
}

/** Where a page's path is read, as a URL's path and query; only these are taken from it. */
const PROBE = 'https://page.invalid';

/**
 * Why `path` is not a page of the app a link may open (completing "path …"), or null when it is one: it starts with
 * one `/`, names one of APP_PAGES, and may carry a query (a fragment is dropped).
 *
 * @example appPageProblem('/launch?x=1') // null
 * @example appPageProblem('/admin') // '"/admin" is not a page of the app'
 */
export function appPageProblem(path: string): string | null {
  if (path === '') return 'is missing';
  if (!path.startsWith('/') || path.startsWith('//') || path.length > 512 || /[\\\s\p{Cc}]/u.test(path)) {
    return `"${path.slice(0, 60)}" is not a path of this site (it must start with one /)`;
  }
  const url = new URL(path, PROBE);
  if (url.origin !== PROBE || !isAppPage(url.pathname))
    return `"${url.pathname.slice(0, 60)}" is not a page of the app`;
  return null;
}
