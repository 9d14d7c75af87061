import { join } from 'node:path';
import Database from 'better-sqlite3';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAccounts } from '../src-main/chain/devnet/testAccounts';
import { DEFAULT_RATE_LIMITS } from '../src-main/http/createApp';
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

/**
 * Issue 30: the app's own page has a budget nothing else can spend. Its page sends the run's token in x-app-token; a
 * bot on the same machine has no token and, whatever it forges, counts with its address. With the spec's limits, a bot
 * spends its whole minute and more, and the page's quotes of a real launch still answer 200.
 */
describe("the app's own page", () => {
  const APP_TOKEN = 'rate-limit-test-token-0000000000';
  let own: TestService;
  let token: string;
  const quoteOf = (headers: Record<string, string> = {}) =>
    fetch(`${own.url}/quote?token=${token}&side=buy&amount=0.01`, { headers });
  /** What the app's page sends with every request: the CSRF header, the run's token, and its browser's mark. */
  const PAGE = { 'x-mm-csrf': '1', 'x-app-token': APP_TOKEN, 'sec-fetch-site': 'same-origin' };

  beforeAll(async () => {
    own = await startTestService(undefined, { appToken: APP_TOKEN, seed: true });
    await own.seeded;
    // The seed's launches, once the indexer has them: a launch of the devnet's own, quoted from its real pool.
    for (let tries = 0; tries < 300 && !token; tries++) {
      const { launches } = (await (await fetch(`${own.url}/launches`)).json()) as { launches: { token: string }[] };
      if (launches[0]) token = launches[0].token;
      else await new Promise((wait) => setTimeout(wait, 100));
    }
    expect(token).toMatch(/^0x[0-9a-fA-F]{40}$/);
  }, 60_000);
  afterAll(async () => {
    await own?.dispose();
  });

  it("keeps answering the page's quotes 200 while a bot hammers quotes past its limit", async () => {
    const perMinute = DEFAULT_RATE_LIMITS.quotesPerMinute;
    const statuses: number[] = [];
    // The bot's best moves: plain quotes (the lean route), a wrong token, a forged browser mark, the CSRF header.
    const forged: Record<string, string>[] = [
      {},
      { 'x-app-token': 'guessed' },
      { 'sec-fetch-site': 'same-origin' },
      { 'x-mm-csrf': '1' },
    ];
    for (let i = 0; i < perMinute + 40; i++) statuses.push((await quoteOf(forged[i % forged.length])).status);
    expect(statuses.slice(0, perMinute).every((status) => status === 200)).toBe(true);
    expect(new Set(statuses.slice(perMinute))).toEqual(new Set([429]));
    const limited = await quoteOf();
    expect([limited.status, ((await limited.json()) as { error: { code: string } }).error.code]).toEqual([
      429,
      'RATE_LIMITED',
    ]);
    // The page's own budget is whole: nothing the bot sent was counted in it.
    const page = await quoteOf(PAGE);
    expect(page.status).toBe(200);
    expect(page.headers.get('ratelimit-policy')).toBe(
      `"quotes";q=${perMinute};w=60;pk=:${Buffer.from('app').toString('base64')}:`,
    );
    expect(page.headers.get('ratelimit')).toBe(`"quotes";r=${perMinute - 1};t=60`);
    const quoted = (await page.json()) as { token: { address: string }; pay: { wei: string } };
    expect(quoted.token.address.toLowerCase()).toBe(token.toLowerCase());
    expect(BigInt(quoted.pay.wei)).toBeGreaterThan(0n);
    // And the bot is still refused: the page's quote was not counted in the bot's minute either.
    expect((await quoteOf()).status).toBe(429);
  });
});
