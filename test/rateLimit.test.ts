import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestService, type TestService } from './support/startTestService';

let service: TestService;
let unlimited: TestService;

beforeAll(async () => {
  service = await startTestService(undefined, {
    rateLimits: { quotesPerMinute: 3, buildsPerMinute: 2, uploadsPerMinute: 20 },
  });
  unlimited = await startTestService(undefined, { rateLimits: false });
});
afterAll(async () => {
  await service?.dispose();
  await unlimited?.dispose();
});

const quote = (s: TestService) =>
  fetch(`${s.url}/quote?token=0x00000000000000000000000000000000c0ffee01&side=buy&amount=1`);
const build = (s: TestService) =>
  fetch(`${s.url}/build/buy`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });

it('limits quotes and builds per client per minute, with RATE_LIMITED and Retry-After', async () => {
  // Requests count whether or not they succeed: these are refused for their token, then for the limit.
  for (let i = 0; i < 3; i++) expect((await quote(service)).status).toBe(400);
  const limited = await quote(service);
  expect(limited.status).toBe(429);
  const retryAfter = Number(limited.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);
  const body = (await limited.json()) as { error: { code: string; fix: string } };
  expect(body.error.code).toBe('RATE_LIMITED');
  expect(body.error.fix).toMatch(/Wait \d+ seconds/);
  // Builds have their own budget, and other endpoints none.
  for (let i = 0; i < 2; i++) expect((await build(service)).status).toBe(400);
  expect((await build(service)).status).toBe(429);
  expect((await fetch(`${service.url}/settings`)).status).toBe(200);
});

it('can be switched off, for a trusted local bot', async () => {
  for (let i = 0; i < 150; i++) expect((await quote(unlimited)).status).toBe(400);
});
