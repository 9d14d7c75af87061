import { describe, expect, it } from 'vitest';
import { ApiError } from '../../core/errors';
import { APP_PAGE, RATE_LIMIT, RATE_LIMIT_POLICY, RateLimiter } from './rateLimit';

/** A limiter on a clock the test moves. */
function limiter(perMinute: number) {
  let time = 1_000_000;
  const limits = new RateLimiter({ perMinute, what: 'quotes', now: () => time });
  return {
    limits,
    advance(ms: number) {
      time += ms;
    },
  };
}

/** The refusal `take` throws, for its status, Retry-After and fields. */
function refusal(take: () => unknown): ApiError {
  try {
    take();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('the request was not refused');
}

const SNIPER = { id: 'key_00000000000000a1', label: 'sniper', perMinute: 5 };

describe('RateLimiter', () => {
  it('names its policy as the draft writes it, and counts down what is left in RateLimit', () => {
    const { limits, advance } = limiter(3);
    expect(limits.policy).toBe('"quotes";q=3;w=60');
    expect(limits.take('127.0.0.1')).toBe('"quotes";r=2;t=60');
    advance(20_500);
    // t: until the first request leaves the sliding minute (39.5 s, rounded up), when one more is allowed.
    expect(limits.take('127.0.0.1')).toBe('"quotes";r=1;t=40');
    advance(10_000);
    expect(limits.take('127.0.0.1')).toBe('"quotes";r=0;t=30');
  });

  it('refuses past the budget with r=0, t equal to Retry-After, and the policy, as the answer fields', () => {
    const { limits, advance } = limiter(2);
    limits.take('::1');
    advance(15_000);
    limits.take('::1');
    advance(1_000);
    const refused = refusal(() => limits.take('::1'));
    expect(refused.code).toBe('RATE_LIMITED');
    expect(refused.status).toBe(429);
    expect(refused.retryAfterSeconds).toBe(44);
    expect(refused.headers).toEqual({ [RATE_LIMIT_POLICY]: '"quotes";q=2;w=60', [RATE_LIMIT]: '"quotes";r=0;t=44' });
    // The refusal is not counted: once the first request leaves the minute, one more is allowed.
    advance(44_000);
    expect(limits.take('::1')).toBe('"quotes";r=0;t=15');
  });

  it('returns from count the refusal take throws, and counts alike', () => {
    const { limits, advance } = limiter(2);
    expect(limits.count('::1')).toBe('"quotes";r=1;t=60');
    advance(15_000);
    expect(limits.take('::1')).toBe('"quotes";r=0;t=45');
    advance(1_000);
    const returned = limits.count('::1');
    const thrown = refusal(() => limits.take('::1'));
    expect(returned).toBeInstanceOf(ApiError);
    expect(returned).toEqual(thrown);
    expect((returned as ApiError).headers).toEqual(thrown.headers);
    expect((returned as ApiError).retryAfterSeconds).toBe(44);
    advance(44_000);
    expect(limits.count('::1')).toBe('"quotes";r=0;t=15');
  });

  it("counts each address on its own, and a budgeted key by itself: the key's address keeps its budget", () => {
    const { limits } = limiter(2);
    expect(limits.take('127.0.0.1')).toBe('"quotes";r=1;t=60');
    expect(limits.take('127.0.0.2')).toBe('"quotes";r=1;t=60');
    for (let left = SNIPER.perMinute - 1; left >= 0; left--) {
      expect(limits.take('127.0.0.1', SNIPER)).toBe(`"quotes";r=${left};t=60`);
    }
    const refused = refusal(() => limits.take('127.0.0.1', SNIPER));
    expect(refused.message).toContain(SNIPER.id);
    expect(refused.headers?.[RATE_LIMIT]).toBe('"quotes";r=0;t=60');
    // The key's budget is named by its partition key: the key's id, as bytes.
    const pk = Buffer.from(SNIPER.id).toString('base64');
    expect(refused.headers?.[RATE_LIMIT_POLICY]).toBe(`"quotes";q=5;w=60;pk=:${pk}:`);
    expect(limits.policyOf(SNIPER)).toBe(`"quotes";q=5;w=60;pk=:${pk}:`);
    // The address spent one of its own two, whatever its key did.
    expect(limits.take('127.0.0.1')).toBe('"quotes";r=0;t=60');
    expect(refusal(() => limits.take('127.0.0.1')).headers?.[RATE_LIMIT_POLICY]).toBe('"quotes";q=2;w=60');
  });

  it("counts the app's page in a budget of its own, the address's size, that no address or key spends", () => {
    const { limits } = limiter(2);
    limits.take('127.0.0.1');
    limits.take('127.0.0.1');
    expect(refusal(() => limits.take('127.0.0.1')).code).toBe('RATE_LIMITED');
    for (let i = 0; i < 10; i++) limits.take('127.0.0.1', { ...SNIPER, perMinute: 50 });
    const pk = Buffer.from('app').toString('base64');
    expect(limits.policyOf(APP_PAGE)).toBe(`"quotes";q=2;w=60;pk=:${pk}:`);
    expect(limits.take('127.0.0.1', APP_PAGE)).toBe('"quotes";r=1;t=60');
    expect(limits.take('::1', APP_PAGE)).toBe('"quotes";r=0;t=60');
    const refused = refusal(() => limits.take('127.0.0.1', APP_PAGE));
    expect(refused.message).toContain("the app's own page");
    expect(refused.fix).toBeTruthy();
    expect(refused.headers?.[RATE_LIMIT_POLICY]).toBe(`"quotes";q=2;w=60;pk=:${pk}:`);
  });

  it('takes a policy name of its own beside the words of its message', () => {
    const uploads = new RateLimiter({ perMinute: 20, what: 'image uploads', policy: 'uploads', now: () => 0 });
    expect(uploads.policy).toBe('"uploads";q=20;w=60');
    expect(uploads.take('127.0.0.1')).toBe('"uploads";r=19;t=60');
  });
});
