import type { Logger } from '../log/createLogger';

export interface PoliteFetchOptions {
  /** The longest one request waits out 429s before the 429 is answered after all (60 s by default). */
  maxWaitMs?: number;
  /** The pause after a 429 without a usable Retry-After (doubling while they repeat); 1 s by default. */
  backoffMs?: number;
  log?: Logger;
  fetch?: typeof fetch;
}

const MAX_BACKOFF_MS = 30_000;

/** Milliseconds a Retry-After header asks for (seconds or an HTTP date), or null when it says nothing usable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', abort, { once: true });
  });
}

/**
 * A fetch for the RPC transport that slows down when the RPC says 429 (Too Many Requests), instead of failing: the
 * request waits what Retry-After asks (or a doubling pause) and is sent again, and every other request of the service
 * holds back until the same moment, since a rate limit is on the client, not on one request. A request that would
 * wait longer than `maxWaitMs` in all gets the 429 after all (and fails as an unreachable RPC would). Free public BSC
 * endpoints answer 429 under load.
 *
 * @example http(url, { fetchFn: politeFetch({ log }) })
 */
export function politeFetch(options: PoliteFetchOptions = {}): typeof fetch {
  const send = options.fetch ?? fetch;
  const maxWaitMs = options.maxWaitMs ?? 60_000;
  const backoffMs = options.backoffMs ?? 1_000;
  /** No request goes out before this time (Unix ms): the RPC asked for a pause. */
  let notBefore = 0;
  let backoffs = 0;
  return async (input, init) => {
    const started = Date.now();
    for (;;) {
      const wait = notBefore - Date.now();
      if (wait > 0) await sleep(wait, init?.signal);
      const response = await send(input, init);
      if (response.status !== 429) {
        backoffs = 0;
        return response;
      }
      const asked = retryAfterMs(response.headers.get('retry-after'));
      const delay = asked ?? Math.min(MAX_BACKOFF_MS, backoffMs * 2 ** backoffs++);
      if (Date.now() + delay - started > maxWaitMs) return response;
      await response.body?.cancel().catch(() => {});
      const until = Date.now() + delay;
      if (notBefore < Date.now()) {
        options.log?.warn(`chain: the RPC asks to slow down (429); waiting ${Math.round(delay / 100) / 10} s`);
      }
      notBefore = Math.max(notBefore, until);
    }
  };
}
