import { join } from 'node:path';
import Database from 'better-sqlite3';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAccounts } from '../src-main/chain/devnet/testAccounts';
import { startTestService, type TestService } from './support/startTestService';

let service: TestService;
let unlimited: TestService;
let perAddress: TestService;
const account = (index: number) => privateKeyToAccount(testAccounts()[index]?.privateKey ?? '0x');

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

const quote = (s: TestService, headers: Record<string, string> = {}) =>
  fetch(`${s.url}/quote?token=0x00000000000000000000000000000000c0ffee01&side=buy&amount=1`, { headers });
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

describe('per address, as the spec says', () => {
  /** Challenges asked of `perAddress` so far, each one from its budget. */
  let challengesAsked = 0;
  const QUOTES = 3;
  const BUILDS = 2;
  const CHALLENGES = 5;
  const challenge = (path: string, wallet = 3) => {
    challengesAsked++;
    return fetch(`${perAddress.origin}${path}?address=${account(wallet).address}`);
  };

  beforeAll(async () => {
    perAddress = await startTestService(undefined, {
      rateLimits: {
        quotesPerMinute: QUOTES,
        buildsPerMinute: BUILDS,
        uploadsPerMinute: 20,
        challengesPerMinute: CHALLENGES,
      },
    });
  });
  afterAll(async () => {
    await perAddress?.dispose();
  });

  it('gives an API key no allowance of its own: a fresh key is limited with its address', async () => {
    const asked = (await (await challenge('/api/v1/keys/challenge')).json()) as { nonce: string; message: string };
    const created = await fetch(`${perAddress.url}/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        nonce: asked.nonce,
        signature: await account(3).signMessage({ message: asked.message }),
        label: 'throwaway',
      }),
    });
    expect(created.status).toBe(201);
    const { key } = (await created.json()) as { key: string };
    for (let i = 0; i < QUOTES; i++) expect((await quote(perAddress)).status).toBe(400);
    const keyed = await quote(perAddress, { 'x-api-key': key });
    expect(keyed.status).toBe(429);
    expect(((await keyed.json()) as { error: { code: string } }).error.code).toBe('RATE_LIMITED');
  });

  it('counts building a prepared request as a build, from the same budget as /build/*', async () => {
    const buildIntent = () =>
      fetch(`${perAddress.url}/intents/int_${'0'.repeat(24)}/build`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
    for (let i = 0; i < BUILDS; i++) expect((await buildIntent()).status).toBe(404);
    expect((await build(perAddress)).status).toBe(429);
    expect((await buildIntent()).status).toBe(429);
  });

  it('limits the challenges of keys, referrals and sign-in together, and stores no more rows than it served', async () => {
    const paths = ['/api/v1/keys/challenge', '/api/v1/referrals/challenge', '/api/auth/challenge'];
    const left = CHALLENGES - challengesAsked;
    expect(left).toBeGreaterThan(0);
    for (let i = 0; i < left; i++) expect((await challenge(paths[i % 3] as string, 4 + i)).status).toBe(200);
    for (const path of paths) {
      // Each from another wallet: the limit is the caller's, not the wallet's.
      for (let wallet = 10; wallet < 13; wallet++) {
        const refused = await challenge(path, wallet);
        expect(refused.status, path).toBe(429);
        expect(((await refused.json()) as { error: { code: string } }).error.code, path).toBe('RATE_LIMITED');
      }
    }
    const db = new Database(join(perAddress.dataDir, 'app.sqlite'), { readonly: true });
    try {
      expect(db.prepare('SELECT COUNT(*) FROM challenges').pluck().get()).toBe(CHALLENGES);
    } finally {
      db.close();
    }
  });
});
