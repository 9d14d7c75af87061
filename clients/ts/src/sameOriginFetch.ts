import type { FetchLike } from './createCompanion';

/** Redirects followed before a request is given up on, as browsers and undici do. */
const MAX_REDIRECTS = 20;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * A fetch that follows redirects itself, so that the API key never leaves the service's origin: `x-api-key` is sent
 * only to `origin` (the base URL's), and a redirect to any other origin goes on without it, for that hop and every
 * later one. fetch's own redirect handling keeps every custom header across origins (it drops only Authorization),
 * which would hand the key to whatever a redirect names.
 *
 * @example const send = sameOriginFetch('http://127.0.0.1:8787', (request) => fetch(request));
 */
export function sameOriginFetch(origin: string, send: FetchLike): FetchLike {
  return async (request) => {
    let url = request.url;
    let method = request.method;
    const headers = new Headers(request.headers);
    let body = method === 'GET' || method === 'HEAD' ? undefined : await request.arrayBuffer();
    for (let hop = 0; ; hop++) {
      if (new URL(url).origin !== origin) headers.delete('x-api-key');
      const response = await send(
        new Request(url, {
          method,
          headers,
          ...(body === undefined ? {} : { body }),
          redirect: 'manual',
          signal: request.signal,
        }),
      );
      const location = response.headers.get('location');
      if (!REDIRECTS.has(response.status) || location === null || request.redirect === 'manual') return response;
      if (request.redirect === 'error' || hop >= MAX_REDIRECTS) {
        await response.body?.cancel();
        throw new TypeError(`${request.url} redirected more than ${MAX_REDIRECTS} times, or redirects were refused`);
      }
      await response.body?.cancel();
      url = new URL(location, url).href;
      // As fetch does: 303, and a POST answered 301 or 302, go on as a GET without the body.
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
        headers.delete('content-type');
        headers.delete('content-length');
      }
    }
  };
}
