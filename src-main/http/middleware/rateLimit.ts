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
 * one free signature from a throwaway wallet. One limiter may guard several paths (the builds and the build of a
 * prepared request), which then share one budget, and both ways a quote can be answered (the app's route and the lean
 * route in front of it) count in the one quote limiter. Over the limit: RATE_LIMITED (429) with Retry-After in
 * seconds.
 */
export class RateLimiter {
  /** Each address's request times within the window, oldest first. */
  private readonly hits = new Map<string, number[]>();
  private sweep = 0;
  private readonly perMinute: number;
  private readonly what: string;
  private readonly now: () => number;

  constructor({ perMinute, what, now = Date.now }: RateLimitOptions) {
    this.perMinute = perMinute;
    this.what = what;
    this.now = now;
  }

  /** Counts one request from `address`, or throws RATE_LIMITED when the minute's allowance is spent. */
  take(address: string): void {
    const time = this.now();
    let recent = this.hits.get(address);
    if (!recent) {
      recent = [];
      this.hits.set(address, recent);
    }
    let expired = 0;
    while (expired < recent.length && (recent[expired] as number) <= time - WINDOW_MS) expired++;
    if (expired > 0) recent.splice(0, expired);
    if (recent.length >= this.perMinute) {
      const retryAfter = Math.max(1, Math.ceil(((recent[0] ?? time) + WINDOW_MS - time) / 1000));
      throw new ApiError(
        'RATE_LIMITED',
        `more than ${this.perMinute} ${this.what} from ${address} in the last minute`,
        {
          fix: `Wait ${retryAfter} seconds (Retry-After), then send again; another API key does not raise the limit.`,
          retryAfterSeconds: retryAfter,
        },
      );
    }
    recent.push(time);
    // Forget idle clients now and then, so the table cannot grow without bound.
    if (time - this.sweep > WINDOW_MS) {
      this.sweep = time;
      for (const [client, times] of this.hits) if ((times.at(-1) ?? 0) <= time - WINDOW_MS) this.hits.delete(client);
    }
  }
}

/** The app's middleware over a limiter (made from `options`, or shared with other paths). */
export function rateLimit(limit: RateLimitOptions | RateLimiter): MiddlewareHandler {
  const limiter = limit instanceof RateLimiter ? limit : new RateLimiter(limit);
  return async (c, next) => {
    limiter.take(clientAddress(c));
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
