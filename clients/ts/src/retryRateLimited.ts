import { CompanionError } from './companionError';
import { sleep } from './sleep';

/** A wait for the rate limit, as it is reported to the caller. */
export interface RateLimitedWait {
  /** What was limited: `quote`, `build/buy`, `build/sell`, `build/launch` or `intents/build`. */
  what: string;
  /** 1 for the first wait of this call, and so on. */
  attempt: number;
  /** How long the client waits before sending it again: what Retry-After asked. */
  waitMs: number;
  error: CompanionError;
}

export interface RateLimitRetry {
  /** Waits per call at most (3 by default); the next RATE_LIMITED is thrown. */
  maxRetries?: number;
  /** The longest Retry-After waited for (60 s by default); a longer one is thrown at once, for the bot to decide. */
  maxWaitMs?: number;
  /** Told of each wait before it starts; by default one line on stderr (console.warn). */
  onWait?: (wait: RateLimitedWait) => void;
  /** Ends a wait early, throwing the RATE_LIMITED error. */
  signal?: AbortSignal;
}

const DEFAULTS = { maxRetries: 3, maxWaitMs: 60_000 };

const warn = (wait: RateLimitedWait) =>
  console.warn(
    `companion client: ${wait.what} rate limited (${wait.error.message}); waiting ${Math.ceil(wait.waitMs / 1000)} s ` +
      `as Retry-After asks, then retry ${wait.attempt}`,
  );

/**
 * Runs `call`, and when the service answers RATE_LIMITED waits what its Retry-After asks and runs it again, up to
 * `maxRetries` times and only for waits up to `maxWaitMs`; each wait is reported through `onWait` first. Quotes and
 * builds change nothing on the service, so sending them again is safe. `false` turns the retry off.
 *
 * @example const quote = await retryRateLimited('quote', () => getQuote(api, query), { maxRetries: 2 });
 */
export async function retryRateLimited<T>(
  what: string,
  call: () => Promise<T>,
  options: RateLimitRetry | false = {},
): Promise<T> {
  if (options === false) return call();
  const { maxRetries, maxWaitMs } = { ...DEFAULTS, ...options };
  const onWait = options.onWait ?? warn;
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof CompanionError) || error.code !== 'RATE_LIMITED' || !error.retry) throw error;
      const waitMs = error.retry.afterMs;
      if (attempt > maxRetries || waitMs > maxWaitMs) throw error;
      onWait({ what, attempt, waitMs, error });
      try {
        await sleep(waitMs, options.signal);
      } catch {
        throw error;
      }
    }
  }
}
