import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import { ApiError } from '../../core/errors';
import type { KeyBudget } from '../../services/apiKeys';
import type { AppEnv } from '../env';

export interface RateLimitOptions {
  /** Requests allowed per address in a sliding minute. */
  perMinute: number;
  /** Names the limit in the message ("quotes", "image uploads"). */
  what: string;
  /** The policy's name in the RateLimit-Policy and RateLimit fields; `what` by default. */
  policy?: string;
  /** Current time in ms, replaceable in tests. */
  now?: () => number;
}

/** A key's own allowance in one limiter: its requests count by the key, not by their address. */
export interface KeyAllowance {
  id: string;
  label: string;
  perMinute: number;
}

/**
 * The app's own page (it sent the run's token in x-app-token): a budget of its own, as large as an address's, in which
 * nothing else is counted, so that bots on the same machine, however many requests they send, cannot spend the
 * person's quotes. Its partition key in the RateLimit fields is "app".
 */
export const APP_PAGE = { app: true } as const;

/** A budget of its own that a request counts in instead of its address's: a budgeted key's, or the app page's. */
export type OwnBudget = KeyAllowance | typeof APP_PAGE;

/** The app page's entry in the limiter's table: a string no address or key id can be (they have no space). */
const APP_CLIENT = 'the app';
const isAppPage = (own: OwnBudget | undefined): own is typeof APP_PAGE => own !== undefined && 'app' in own;

/**
 * The fields of the IETF httpapi draft "RateLimit header fields for HTTP" (draft-ietf-httpapi-ratelimit-headers-11):
 * the policy (`"quotes";q=120;w=60`) and what is left of it (`"quotes";r=37;t=12`).
 */
export const RATE_LIMIT_POLICY = 'RateLimit-Policy';
export const RATE_LIMIT = 'RateLimit';

const WINDOW_MS = 60_000;
const WINDOW_SECONDS = WINDOW_MS / 1000;

/**
 * Per-address limit over a sliding minute, as the spec sets it (120 quotes, 60 builds). The address is the client's
 * network address, whatever else it sends: an API key made by signing a challenge names the caller but adds no
 * allowance, since a fresh key costs one free signature from a throwaway wallet. A key the app's owner gave a budget
 * of its own is counted by itself instead (`take`'s `own`), and so is the app's own page (APP_PAGE). One limiter may guard several paths (the builds and the
 * build of a prepared request), which then share one budget, and both ways a quote can be answered (the app's route
 * and the lean route in front of it) count in the one quote limiter. Over the limit: RATE_LIMITED (429) with
 * Retry-After in seconds.
 *
 * Every answer it counts says so in the draft's fields: RateLimit-Policy names the budget (`q` requests in `w`
 * seconds; a key's budget with the key's id as its partition key `pk`), RateLimit what is left (`r`) and the seconds
 * until the oldest request counted leaves the window and one more is allowed (`t`); a refusal has `r=0` and `t` equal
 * to Retry-After.
 */
export class RateLimiter {
  /** Each client's request times within the window (an address's, or a budgeted key's by its id), oldest first. */
  private readonly hits = new Map<string, number[]>();
  private sweep = 0;
  private readonly perMinute: number;
  private readonly what: string;
  /** The policy's name as a structured-field string: `"quotes"`. */
  private readonly name: string;
  private readonly now: () => number;
  /** RateLimit-Policy of an address's budget: `"quotes";q=120;w=60`. */
  readonly policy: string;

  constructor({ perMinute, what, policy = what, now = Date.now }: RateLimitOptions) {
    this.perMinute = perMinute;
    this.what = what;
    this.name = JSON.stringify(policy);
    this.now = now;
    this.policy = `${this.name};q=${perMinute};w=${WINDOW_SECONDS}`;
  }

  /** RateLimit-Policy of the budget `take` counts in: the address's, or `own` (a key's, or the app page's). */
  policyOf(own?: OwnBudget): string {
    if (!own) return this.policy;
    const [perMinute, partition] = isAppPage(own) ? [this.perMinute, 'app'] : [own.perMinute, own.id];
    return `${this.name};q=${perMinute};w=${WINDOW_SECONDS};pk=:${Buffer.from(partition).toString('base64')}:`;
  }

  /**
   * Counts one request from `address`, or in `own` when it has a budget of its own (a budgeted key, the app's page),
   * and answers the RateLimit field's value after it; throws RATE_LIMITED, carrying both fields, when the minute's
   * allowance is spent.
   *
   * @example limiter.take('127.0.0.1') // '"quotes";r=119;t=60'
   * @example limiter.take('127.0.0.1', APP_PAGE) // '"quotes";r=119;t=60', whatever 127.0.0.1 spent
   */
  take(address: string, own?: OwnBudget): string {
    const counted = this.count(address, own);
    if (counted instanceof ApiError) throw counted;
    return counted;
  }

  /**
   * `take`, with the refusal returned instead of thrown: for a caller that answers it there and then (GET /quote's
   * lean route), where throwing it cost as much again as making it.
   */
  count(address: string, own?: OwnBudget): string | ApiError {
    const time = this.now();
    const key = isAppPage(own) ? undefined : own;
    const client = isAppPage(own) ? APP_CLIENT : key ? key.id : address;
    const perMinute = key ? key.perMinute : this.perMinute;
    let recent = this.hits.get(client);
    if (!recent) {
      recent = [];
      this.hits.set(client, recent);
    }
    let expired = 0;
    while (expired < recent.length && (recent[expired] as number) <= time - WINDOW_MS) expired++;
    if (expired > 0) recent.splice(0, expired);
    if (recent.length >= perMinute) {
      const retryAfter = secondsLeft(recent[0] ?? time, time);
      return new ApiError(
        'RATE_LIMITED',
        `more than ${perMinute} ${this.what} ${whose(address, own)} in the last minute`,
        {
          fix: `Wait ${retryAfter} seconds (Retry-After), then send again; ${moreOf(own)}`,
          retryAfterSeconds: retryAfter,
          headers: { [RATE_LIMIT_POLICY]: this.policyOf(own), [RATE_LIMIT]: `${this.name};r=0;t=${retryAfter}` },
        },
      );
    }
    recent.push(time);
    // Forget idle clients now and then, so the table cannot grow without bound.
    if (time - this.sweep > WINDOW_MS) {
      this.sweep = time;
      for (const [other, times] of this.hits) if ((times.at(-1) ?? 0) <= time - WINDOW_MS) this.hits.delete(other);
    }
    return `${this.name};r=${perMinute - recent.length};t=${secondsLeft(recent[0] as number, time)}`;
  }
}

/** Whole seconds, at least one, until a request counted at `oldest` leaves the window. */
const secondsLeft = (oldest: number, time: number) => Math.max(1, Math.ceil((oldest + WINDOW_MS - time) / 1000));

const whose = (address: string, own: OwnBudget | undefined) =>
  isAppPage(own) ? "from the app's own page" : own ? `with the key ${own.id} ("${own.label}")` : `from ${address}`;

/** How a client refused could be allowed more. */
const moreOf = (own: OwnBudget | undefined) =>
  isAppPage(own)
    ? "the app's page has this budget to itself: nothing else spends it."
    : own
      ? "the key's budget was set when it was made: for more, make a key with a larger budget on the app's API keys page."
      : "another API key does not raise the limit, a key made with a budget of its own on the app's API keys page does.";

/** Which of a key's budgets a limiter counts: a key without a budget is counted with its address. */
export type BudgetOf = (budget: KeyBudget) => number;

/**
 * The app's middleware over a limiter (made from `options`, or shared with other paths): counts the request, sets
 * RateLimit-Policy and RateLimit on its answer, whatever its status, or refuses it. With `budgetOf`, a request whose
 * API key has a budget (read by the apiKey middleware before this one) counts against the key's budget instead; else
 * a request from the app's own page (`appPage`, read by the appPage middleware) counts in the page's own budget.
 */
export function rateLimit(limit: RateLimitOptions | RateLimiter, budgetOf?: BudgetOf): MiddlewareHandler {
  const limiter = limit instanceof RateLimiter ? limit : new RateLimiter(limit);
  return async (c, next) => {
    const own = ownBudget(c as Context<AppEnv>, budgetOf);
    const left = limiter.take(clientAddress(c), own);
    c.header(RATE_LIMIT_POLICY, limiter.policyOf(own));
    c.header(RATE_LIMIT, left);
    await next();
  };
}

function ownBudget(c: Context<AppEnv>, budgetOf: BudgetOf | undefined): OwnBudget | undefined {
  const key = budgetOf && keyAllowance(c, budgetOf);
  if (key) return key;
  return c.get('appPage') ? APP_PAGE : undefined;
}

function keyAllowance(c: Context<AppEnv>, budgetOf: BudgetOf): KeyAllowance | undefined {
  const key = c.get('apiKey');
  if (!key?.budget) return undefined;
  return { id: key.id, label: key.label, perMinute: budgetOf(key.budget) };
}

function clientAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
