import { DEFAULT_PUBLIC_LINK_BASE, publicLinkBaseProblem } from '../../src-shared/publicLinkBase';
import { ApiError } from './errors';

export { DEFAULT_PUBLIC_LINK_BASE, publicLinkBaseProblem };

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

/** The scheme the desktop app registers with the system, so a shared link opens it (DEFAULT_PUBLIC_LINK_BASE). */
export const APP_LINK_SCHEME = 'launchpad-companion';

/**
 * The page (path and query) a link of the app's own scheme opens, or null when it is not one of the app's pages: the
 * system hands the desktop app whatever link a person clicked, so only our own pages are followed.
 *
 * @example appPathOfLink('launchpad-companion://app/token/0x5FbD…0aa3?r=0x7099…79C8') // '/token/0x5FbD…0aa3?r=0x7099…79C8'
 */
export function appPathOfLink(link: string): string | null {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return null;
  }
  if (`${url.protocol}//${url.host}` !== DEFAULT_PUBLIC_LINK_BASE || url.username || url.password) return null;
  const path = url.pathname || '/';
  return isAppPage(path) ? `${path}${url.search}` : null;
}

/** The public base without a trailing slash, so a page's path is appended to it as is. */
export const linkBaseOf = (base: string): string => base.replace(/\/+$/, '');

/**
 * A link to one of the app's pages carrying the referrer in `r`, under the public base `base` (a site, or the app's
 * own scheme; see DEFAULT_PUBLIC_LINK_BASE). INVALID_PATH unless `path` starts with `/` and names a page of the app (a
 * query is kept, a fragment dropped).
 *
 * @example referralLink('https://app.example', '/launch', '0xAb…') // 'https://app.example/launch?r=0xAb…'
 */
export function referralLink(base: string, path: unknown, referrer: string): string {
  const invalid = (why: string) =>
    new ApiError('INVALID_PATH', `path ${why}`, {
      field: 'path',
      fix: `Send the path of one of the app's pages: ${APP_PAGES.join(', ')}.`,
    });
  if (typeof path !== 'string' || path === '') throw invalid('is missing');
  if (!path.startsWith('/') || path.startsWith('//') || path.length > 512 || /[\\\s\p{Cc}]/u.test(path)) {
    throw invalid(`"${path.slice(0, 60)}" is not a path of this site (it must start with one /)`);
  }
  // Read against a placeholder origin: only the path and query are taken, then put under the public base.
  const probe = 'https://page.invalid';
  const url = new URL(path, probe);
  if (url.origin !== probe || !isAppPage(url.pathname))
    throw invalid(`"${url.pathname.slice(0, 60)}" is not a page of the app`);
  url.searchParams.set('r', referrer);
  return `${linkBaseOf(base)}${url.pathname}${url.search}`;
}
