import { isShareableLink } from '../../../src-shared/publicLinkBase';
import { useWallet } from '../wallet/walletStore';

/**
 * The public base of shared links when one is set (an https:// site serving the app's pages), without a trailing
 * slash; null without one, or where this page cannot ask main (a browser opened without the app's token). The app's
 * own scheme and this computer's address are never a base to share under: they open for nobody else.
 */
export function usePublicLinkBase(): string | null {
  const base = useWallet((s) => s.info?.publicLinkBase ?? null);
  return base !== null && isShareableLink(base) ? base.replace(/\/+$/, '') : null;
}

/** A link to one of the app's pages under the public base, or null without one. */
export function publicPageLink(base: string | null, path: string): string | null {
  return base === null ? null : `${base}${path}`;
}
