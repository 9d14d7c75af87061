import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../../test/support/startTestService';
import { CompanionError } from '../src/companionError';
import { createCompanion } from '../src/createCompanion';
import type { RateLimitedWait } from '../src/retryRateLimited';

// The service with its rate limits on (and small): the client's error says when to try again.

let service: TestService;
beforeAll(async () => {
  service = await startTestService(undefined, {
    rateLimits: { quotesPerMinute: 2, buildsPerMinute: 1, uploadsPerMinute: 20 },
  });
});
afterAll(async () => {
  await service?.dispose();
});

const query = { token: '0x00000000000000000000000000000000c0ffee01', side: 'buy', amount: '1' } as const;

it('a rate limit is RATE_LIMITED, retryable after the seconds Retry-After gives', async () => {
  const companion = createCompanion({ baseUrl: service.url, rateLimitRetry: false });
  // Quotes count whether or not they succeed: these two are refused for their token, the next for the limit.
  for (let i = 0; i < 2; i++) await expect(companion.quote(query)).rejects.toMatchObject({ code: 'UNKNOWN_TOKEN' });
  const error = await companion.quote(query).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(CompanionError);
  const limited = error as CompanionError;
  expect({ status: limited.status, code: limited.code }).toEqual({ status: 429, code: 'RATE_LIMITED' });
  expect(limited.fix).toMatch(/Retry-After/);
  if (!limited.retry) throw new Error('RATE_LIMITED is not retryable');
  expect(limited.retry.afterMs).toBeGreaterThan(0);
  expect(limited.retry.afterMs).toBeLessThanOrEqual(60_000);
  expect(limited.retry.afterMs % 1000).toBe(0);
  // Builds have their own budget.
  const wallet = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
  await expect(companion.buildBuy({ wallet, token: query.token, amount: '1' })).rejects.toMatchObject({
    code: 'UNKNOWN_TOKEN',
  });
  await expect(companion.buildBuy({ wallet, token: query.token, amount: '1' })).rejects.toMatchObject({
    code: 'RATE_LIMITED',
    status: 429,
    retry: { afterMs: expect.any(Number) },
  });
});

it('the client does not wait longer than maxWaitMs: the RATE_LIMITED asking for more comes at once', async () => {
  const waits: RateLimitedWait[] = [];
  const companion = createCompanion({
    baseUrl: service.url,
    rateLimitRetry: { maxWaitMs: 500, onWait: (w) => waits.push(w) },
  });
  // The quote budget (2 a minute) is spent by the test above: the service asks for seconds, more than 500 ms.
  await expect(companion.quote(query)).rejects.toMatchObject({ code: 'RATE_LIMITED', status: 429 });
  expect(waits).toEqual([]);
});
