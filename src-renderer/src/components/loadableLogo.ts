import { apiBase } from '../api/apiBase';

/**
 * Only logos the service stored and serves from its `/media`: the CSP allows no other image origin, and the service
 * fetches and checks every remote logo before it names one.
 */
export function loadableLogo(image: string | null): string | null {
  if (!image) return null;
  try {
    const url = new URL(image);
    return url.origin === new URL(apiBase).origin && url.pathname.startsWith('/media/') && !url.search ? image : null;
  } catch {
    return null;
  }
}
