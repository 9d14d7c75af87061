import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../../test/support/startTestService';
import { createCompanion } from '../src/createCompanion';
import type { RateLimitedWait } from '../src/retryRateLimited';
import { type StandIn, startStandIn } from './standInService';

// The client waits what Retry-After asks and sends quotes and builds again, up to a bound, telling the caller of each
// wait. A stand-in in front of the real service (its own limits off) answers 429 the first times, then passes on.

let service: TestService;
let standIn: StandIn;
beforeAll(async () => {
  service = await startTestService(undefined, { rateLimits: false });
  standIn = await startStandIn(service.origin);
});
afterAll(async () => {
  await standIn?.close();
  await service?.dispose();
});

const query = { token: '0x00000000000000000000000000000000c0ffee01', side: 'buy', amount: '1' } as const;

it('waits what Retry-After asks and sends the quote again, reporting each wait; the answer is then the service’s', async () => {
  standIn.refuse = { path: '/api/v1/quote', times: 2, retryAfterSeconds: 1 };
  const waits: RateLimitedWait[] = [];
  const companion = createCompanion({ baseUrl: standIn.url, rateLimitRetry: { onWait: (wait) => waits.push(wait) } });
  // Both refusals waited out, the third try reaches the real service, which knows no such token.
  await expect(companion.quote(query)).rejects.toMatchObject({ code: 'UNKNOWN_TOKEN' });
  expect(waits.map(({ what, attempt, waitMs, error }) => ({ what, attempt, waitMs, code: error.code }))).toEqual([
    { what: 'quote', attempt: 1, waitMs: 1000, code: 'RATE_LIMITED' },
    { what: 'quote', attempt: 2, waitMs: 1000, code: 'RATE_LIMITED' },
  ]);
  expect(standIn.refuse?.times).toBe(0);
});

it('stops at the bound: after maxRetries waits, the next RATE_LIMITED is thrown to the caller', async () => {
  standIn.refuse = { path: '/api/v1/build/buy', times: 5, retryAfterSeconds: 1 };
  const waits: RateLimitedWait[] = [];
  const companion = createCompanion({
    baseUrl: standIn.url,
    rateLimitRetry: { maxRetries: 1, onWait: (wait) => waits.push(wait) },
  });
  const wallet = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
  await expect(companion.buildBuy({ wallet, token: query.token, amount: '1' })).rejects.toMatchObject({
    code: 'RATE_LIMITED',
    status: 429,
    retry: { afterMs: 1000 },
  });
  expect(waits.map((wait) => wait.what)).toEqual(['build/buy']);
  expect(standIn.refuse?.times).toBe(3);
});

it('with rateLimitRetry: false, the first RATE_LIMITED is thrown', async () => {
  standIn.refuse = { path: '/api/v1/quote', times: 1, retryAfterSeconds: 1 };
  const companion = createCompanion({ baseUrl: standIn.url, rateLimitRetry: false });
  await expect(companion.quote(query)).rejects.toMatchObject({ code: 'RATE_LIMITED' });
  expect(standIn.refuse?.times).toBe(0);
});
