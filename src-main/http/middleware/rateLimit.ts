import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import { ApiError } from '../../core/errors';

export interface RateLimitOptions {
  /** Requests allowed per client in a sliding minute. */
  perMinute: number;
  /** Names the limit in the message ("quotes", "builds"). */
  what: string;
  /** Current time in ms, replaceable in tests. */
  now?: () => number;
}

const WINDOW_MS = 60_000;

/**
 * Per-client limit over a sliding minute, as the spec sets it (120 quotes, 60 builds). A client is its API key when
 * it sends one, else its address. Over the limit: RATE_LIMITED (429) with Retry-After in seconds.
 */
export function rateLimit({ perMinute, what, now = Date.now }: RateLimitOptions): MiddlewareHandler {
  const hits = new Map<string, number[]>();
  let sweep = 0;
  return async (c, next) => {
    const time = now();
    const key = clientKey(c);
    const recent = (hits.get(key) ?? []).filter((at) => at > time - WINDOW_MS);
    if (recent.length >= perMinute) {
      const retryAfter = Math.max(1, Math.ceil(((recent[0] ?? time) + WINDOW_MS - time) / 1000));
      hits.set(key, recent);
      throw new ApiError('RATE_LIMITED', `more than ${perMinute} ${what} from this client in the last minute`, {
        fix: `Wait ${retryAfter} seconds (Retry-After), then send again.`,
        retryAfterSeconds: retryAfter,
      });
    }
    recent.push(time);
    hits.set(key, recent);
    // Forget idle clients now and then, so the table cannot grow without bound.
    if (time - sweep > WINDOW_MS) {
      sweep = time;
      for (const [client, times] of hits) if ((times.at(-1) ?? 0) <= time - WINDOW_MS) hits.delete(client);
    }
    await next();
  };
}

function clientKey(c: Context): string {
  const apiKey = c.req.header('x-api-key');
  if (apiKey) return `key:${apiKey}`;
  try {
    return `ip:${getConnInfo(c).remote.address ?? 'unknown'}`;
  } catch {
    return 'ip:unknown';
  }
}
