/*
 * The public base of shared referral links, checked the same by main (flags, saved settings) and the settings form.
 */

/**
 * Where shared links to the app's pages point when no public base is configured: the app's own scheme, which opens
 * the desktop app, never this machine's loopback address (meaningless on anyone else's computer).
 */
export const DEFAULT_PUBLIC_LINK_BASE = 'launchpad-companion://app';

const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\]|0\.0\.0\.0)$/i;

/**
 * Why `text` cannot be the public base of shared links, or null when it can: an https:// site (a path prefix allowed,
 * no query or fragment, not a loopback host) or the app's own scheme.
 *
 * @example publicLinkBaseProblem('https://app.example/pad') // null
 * @example publicLinkBaseProblem('http://127.0.0.1:8787') // 'a public link base is an https:// address …'
 */
export function publicLinkBaseProblem(text: string): string | null {
  if (text === DEFAULT_PUBLIC_LINK_BASE) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'a public link base is an https:// address, like https://app.example';
  }
  if (url.protocol !== 'https:' || url.search || url.hash || url.username || url.password || text.includes('#')) {
    return 'a public link base is an https:// address with no query or fragment, like https://app.example';
  }
  if (LOOPBACK_HOST.test(url.hostname)) return "a public link base cannot be this computer's own address";
  return null;
}

/**
 * Whether a link can be offered as something to share: an https:// address on a host other than this computer's.
 * Links under the app's own scheme (launchpad-companion://) or a loopback address open for nobody else.
 *
 * @example isShareableLink('https://app.example/token/0x5FbD…?r=0x7099…') // true
 * @example isShareableLink('launchpad-companion://app/launch?r=0x7099…') // false
 * @example isShareableLink('http://127.0.0.1:8787/token/0x5FbD…') // false
 */
export function isShareableLink(link: string): boolean {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return false;
  }
  return url.protocol === 'https:' && !url.username && !url.password && !LOOPBACK_HOST.test(url.hostname);
}
