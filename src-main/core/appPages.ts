import { APP_PAGES, appPageProblem, isAppPage } from '../../src-shared/appPages';
import { DEFAULT_PUBLIC_LINK_BASE, publicLinkBaseProblem } from '../../src-shared/publicLinkBase';
import { ApiError } from './errors';

export { DEFAULT_PUBLIC_LINK_BASE, publicLinkBaseProblem };

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
  const problem = typeof path === 'string' ? appPageProblem(path) : 'is missing';
  if (problem !== null) {
    throw new ApiError('INVALID_PATH', `path ${problem}`, {
      field: 'path',
      fix: `Send the path of one of the app's pages: ${APP_PAGES.join(', ')}.`,
    });
  }
  // Read against a placeholder origin: only the path and query are taken, then put under the public base.
  const url = new URL(path as string, 'https://page.invalid');
  url.searchParams.set('r', referrer);
  return `${linkBaseOf(base)}${url.pathname}${url.search}`;
}
