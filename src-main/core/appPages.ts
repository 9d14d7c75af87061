import { ApiError } from './errors';

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
  '/settings',
] as const;

const PATTERNS = APP_PAGES.map(
  (page) =>
    new RegExp(`^${page.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace('\\{address\\}', '0x[0-9a-fA-F]{40}')}/?$`),
);

/** Whether a path (without query or fragment) is one of the app's pages. */
export function isAppPage(pathname: string): boolean {
  return PATTERNS.some((pattern) => pattern.test(pathname));
}

/**
 * A link to one of the app's pages carrying the referrer in `r`, on this server's origin. INVALID_PATH unless `path`
 * starts with `/` and names a page of the app (a query is kept, a fragment dropped).
 */
export function referralLink(origin: string, path: unknown, referrer: string): string {
  const invalid = (why: string) =>
    new ApiError('INVALID_PATH', `path ${why}`, {
      field: 'path',
      fix: `Send the path of one of the app's pages: ${APP_PAGES.join(', ')}.`,
    });
  if (typeof path !== 'string' || path === '') throw invalid('is missing');
  if (!path.startsWith('/') || path.startsWith('//') || path.length > 512 || /[\\\s\p{Cc}]/u.test(path)) {
    throw invalid(`"${path.slice(0, 60)}" is not a path of this site (it must start with one /)`);
  }
  const url = new URL(path, origin);
  if (url.origin !== origin || !isAppPage(url.pathname))
    throw invalid(`"${url.pathname.slice(0, 60)}" is not a page of the app`);
  url.hash = '';
  url.searchParams.set('r', referrer);
  return url.toString();
}
