import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import { ApiError } from '../../core/errors';

export interface RateLimitOptions {
  /** Requests allowed per address in a sliding minute. */
  perMinute: number;
  /** Names the limit in the message ("quotes", "builds"). */
  what: string;
  /** Current time in ms, replaceable in tests. */
  now?: () => number;
}

const WINDOW_MS = 60_000;

/**
 * Per-address limit over a sliding minute, as the spec sets it (120 quotes, 60 builds). The address is the client's
 * network address, whatever else it sends: an API key names the caller but adds no allowance, since a fresh key costs
 * one free signature from a throwaway wallet. One middleware may guard several paths (the builds and the build of a
 * prepared request), which then share one budget. Over the limit: RATE_LIMITED (429) with Retry-After in seconds.
 */
export function rateLimit({ perMinute, what, now = Date.now }: RateLimitOptions): MiddlewareHandler {
  const hits = new Map<string, number[]>();
  let sweep = 0;
  return async (c, next) => {
    const time = now();
    const address = clientAddress(c);
    const recent = (hits.get(address) ?? []).filter((at) => at > time - WINDOW_MS);
    if (recent.length >= perMinute) {
      const retryAfter = Math.max(1, Math.ceil(((recent[0] ?? time) + WINDOW_MS - time) / 1000));
      hits.set(address, recent);
      throw new ApiError('RATE_LIMITED', `more than ${perMinute} ${what} from ${address} in the last minute`, {
        fix: `Wait ${retryAfter} seconds (Retry-After), then send again; another API key does not raise the limit.`,
        retryAfterSeconds: retryAfter,
      });
    }
    recent.push(time);
    hits.set(address, recent);
    // Forget idle clients now and then, so the table cannot grow without bound.
    if (time - sweep > WINDOW_MS) {
      sweep = time;
      for (const [client, times] of hits) if ((times.at(-1) ?? 0) <= time - WINDOW_MS) hits.delete(client);
    }
    await next();
  };
}

function clientAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
