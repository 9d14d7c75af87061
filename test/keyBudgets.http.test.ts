import type { Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAccounts } from '../src-main/chain/devnet/testAccounts';
import type { RateLimits } from '../src-main/http/createApp';
import { jsonInit } from './support/jsonInit';
import { serviceDrivers } from './support/serviceDrivers';
import { startTestService, type TestService } from './support/startTestService';

/**
 * The rate limits as a bot reads them (the RateLimit-Policy and RateLimit fields of the IETF draft, on what they count
 * and on their refusals), and the budgets the app's owner gives keys: over real HTTP, on a devnet with one launch.
 */

const QUOTES = 4;
const BUILDS = 3;
const LIMITS: RateLimits = { quotesPerMinute: QUOTES, buildsPerMinute: BUILDS, uploadsPerMinute: 20 };
const APP_TOKEN = 'key-budgets-test-token-0000000000';
/** The wallet that builds: a funded test account. */
const BUYER = testAccounts()[3]?.address as Address;
/** A 1x1 PNG, to upload. */
const ONE_PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const account = (index: number) => privateKeyToAccount(testAccounts()[index]?.privateKey ?? '0x');

interface Answer {
  status: number;
  body: any;
  policy: string | null;
  left: { name: string; r: number; t: number } | null;
  retryAfter: string | null;
}

/** A running service with `LIMITS` and the run's token, and one launched token to quote and build. */
async function startWithToken(saltSeed: string): Promise<{ service: TestService; token: Address }> {
  const service = await startTestService(undefined, { rateLimits: LIMITS, appToken: APP_TOKEN });
  const drivers = await serviceDrivers(service);
  const launched = await drivers.launcher.launch({ creator: 2, saltSeed });
  if (launched.result !== 'ok') throw new Error(`launch failed: ${launched.result}`);
  await service.indexer.waitFor(await drivers.api.client.getBlockNumber({ cacheTime: 0 }));
  return { service, token: launched.token };
}

/** The RateLimit field read: the policy's name, r and t; null when absent or not in the draft's form. */
function readLeft(value: string | null): Answer['left'] {
  const parts = /^"([a-z]+)";r=(\d+);t=(\d+)$/.exec(value ?? '');
  return parts ? { name: parts[1] as string, r: Number(parts[2]), t: Number(parts[3]) } : null;
}

function client(service: () => TestService, token: () => Address) {
  const call = async (path: string, init: RequestInit = {}): Promise<Answer> => {
    const response = await fetch(`${service().url}${path}`, jsonInit(init));
    return {
      status: response.status,
      body: await response.json(),
      policy: response.headers.get('ratelimit-policy'),
      left: readLeft(response.headers.get('ratelimit')),
      retryAfter: response.headers.get('retry-after'),
    };
  };
  return {
    call,
    quote: (headers: Record<string, string> = {}) => call(`/quote?token=${token()}&side=buy&amount=0.01`, { headers }),
    build: (headers: Record<string, string> = {}, amount = '0.01') =>
      call('/build/buy', { method: 'POST', headers, body: JSON.stringify({ wallet: BUYER, token: token(), amount }) }),
    /** A key challenge for the account, signed: what POST /keys redeems. */
    signed: async (index: number) => {
      const asked = (await call(`/keys/challenge?address=${account(index).address}`)).body;
      return { nonce: asked.nonce as string, signature: await account(index).signMessage({ message: asked.message }) };
    },
    createKey: (body: object, headers: Record<string, string> = {}) =>
      call('/keys', { method: 'POST', headers, body: JSON.stringify(body) }),
  };
}

/** What a refusal by the limit must carry: RATE_LIMITED, r=0, t equal to Retry-After, and the budget's policy. */
function expectRefused(answer: Answer, policy: string) {
  expect(answer.status).toBe(429);
  expect(answer.body.error.code).toBe('RATE_LIMITED');
  expect(answer.policy).toBe(policy);
  expect(answer.left?.r).toBe(0);
  expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
  expect(answer.left?.t).toBe(Number(answer.retryAfter));
}

/** What a counted answer must carry: its policy, and r counted down to `r`, within the minute. */
function expectCounted(answer: Answer, name: string, policy: string, r: number) {
  expect(answer.policy).toBe(policy);
  expect(answer.left?.name).toBe(name);
  expect(answer.left?.r).toBe(r);
  expect(answer.left?.t).toBeGreaterThanOrEqual(1);
  expect(answer.left?.t).toBeLessThanOrEqual(60);
}

describe('the RateLimit-Policy and RateLimit fields', () => {
  let service: TestService;
  let token: Address;
  const api = client(
    () => service,
    () => token,
  );

  beforeAll(async () => {
    ({ service, token } = await startWithToken('ratelimit-fields'));
  });
  afterAll(async () => {
    await service?.dispose();
  });

  it('count quotes down on each answer, and refuse with r=0 and t equal to Retry-After', async () => {
    const policy = `"quotes";q=${QUOTES};w=60`;
    for (let i = 0; i < QUOTES; i++) {
      const quoted = await api.quote();
      expect(quoted.status).toBe(200);
      expectCounted(quoted, 'quotes', policy, QUOTES - 1 - i);
    }
    expectRefused(await api.quote(), policy);
    // Refused, nothing more is counted: the next refusal says the same.
    expectRefused(await api.quote(), policy);
  });

  it('count builds, refused ones too, in their own budget', async () => {
    const policy = `"builds";q=${BUILDS};w=60`;
    const built = await api.build();
    expect(built.status, JSON.stringify(built.body)).toBe(200);
    expectCounted(built, 'builds', policy, BUILDS - 1);
    // A build refused for its amount was counted: its answer says so too.
    const refusedAmount = await api.build({}, '-1');
    expect(refusedAmount.status).toBe(400);
    expectCounted(refusedAmount, 'builds', policy, BUILDS - 2);
    // Building a prepared request is a build from the same budget (this one does not exist).
    const intent = await api.call(`/intents/int_${'0'.repeat(24)}/build`, { method: 'POST', body: '{}' });
    expect(intent.status).toBe(404);
    expectCounted(intent, 'builds', policy, 0);
    expectRefused(await api.build(), policy);
  });

  it('name the challenges and uploads budgets, and are absent where nothing is counted', async () => {
    const challenge = await api.call(`/keys/challenge?address=${BUYER}`);
    expect(challenge.status).toBe(200);
    expectCounted(challenge, 'challenges', '"challenges";q=30;w=60', 29);
    const signIn = await fetch(`${service.origin}/api/auth/challenge?address=${BUYER}`);
    expect(signIn.status).toBe(200);
    expect(readLeft(signIn.headers.get('ratelimit'))).toMatchObject({ name: 'challenges', r: 28 });
    const upload = await api.call('/media/image', {
      method: 'POST',
      headers: { 'content-type': 'image/png' },
      body: Buffer.from(ONE_PIXEL_PNG, 'base64'),
    });
    expect(upload.status).toBe(200);
    expectCounted(upload, 'uploads', '"uploads";q=20;w=60', 19);
    const settings = await api.call('/settings');
    expect(settings.status).toBe(200);
    expect(settings.policy).toBeNull();
    expect(settings.left).toBeNull();
  });

  it('are documented on the operations they are sent on', async () => {
    const document = (await api.call('/openapi.json')).body;
    const quote = document.paths['/quote'].get.responses;
    expect(Object.keys(quote['200'].headers)).toEqual(['RateLimit-Policy', 'RateLimit']);
    expect(Object.keys(quote['429'].headers)).toEqual(['RateLimit-Policy', 'RateLimit', 'Retry-After']);
    expect(document.paths['/build/buy'].post.responses['200'].headers).toBeDefined();
    expect(document.paths['/settings'].get.responses['200'].headers).toBeUndefined();
    expect(Object.keys(document.components.headers)).toEqual(['RateLimit-Policy', 'RateLimit', 'Retry-After']);
  });
});

describe("keys' own budgets", () => {
  let service: TestService;
  let token: Address;
  const api = client(
    () => service,
    () => token,
  );
  const asApp = { 'x-app-token': APP_TOKEN };

  beforeAll(async () => {
    ({ service, token } = await startWithToken('key-budgets'));
  });
  afterAll(async () => {
    await service?.dispose();
  });

  it("refuses a budget from anyone but the app's owner, before the signed challenge is used up", async () => {
    const signed = await api.signed(6);
    const budget = { quotesPerMinute: 50, buildsPerMinute: 5 };
    const bySigning = await api.createKey({ ...signed, label: 'wants more', budget });
    expect(bySigning.status).toBe(400);
    expect(bySigning.body.error).toMatchObject({ code: 'INVALID_BODY', field: 'budget' });
    const wrongToken = await api.createKey({ ...signed, label: 'wants more', budget }, { 'x-app-token': 'guess' });
    expect(wrongToken.status).toBe(401);
    expect(wrongToken.body.error.code).toBe('API_KEY_REQUIRED');
    // The challenge is still good: without a budget the same signature makes a key, which has none.
    const plain = await api.createKey({ ...signed, label: 'plain', budget: null });
    expect(plain.status).toBe(201);
    expect(plain.body.budget).toBeNull();
  });

  it('refuses a budget that is not a whole number of requests from 1 to 60,000 a minute, naming the field', async () => {
    const signed = await api.signed(7);
    const cases: [unknown, string][] = [
      [{ quotesPerMinute: 0, buildsPerMinute: 5 }, 'budget.quotesPerMinute'],
      [{ quotesPerMinute: 10, buildsPerMinute: 1.5 }, 'budget.buildsPerMinute'],
      [{ quotesPerMinute: '600', buildsPerMinute: 5 }, 'budget.quotesPerMinute'],
      [{ quotesPerMinute: 60_001, buildsPerMinute: 5 }, 'budget.quotesPerMinute'],
      [{ quotesPerMinute: 10 }, 'budget.buildsPerMinute'],
      ['lots', 'budget'],
    ];
    for (const [budget, field] of cases) {
      const refused = await api.createKey({ ...signed, label: 'bad budget', budget }, asApp);
      expect(refused.status, JSON.stringify(budget)).toBe(400);
      expect(refused.body.error, JSON.stringify(budget)).toMatchObject({ code: 'INVALID_BODY', field });
      expect(refused.body.error.fix).toBeTruthy();
    }
    const made = await api.createKey(
      { ...signed, label: 'good budget', budget: { quotesPerMinute: 60_000, buildsPerMinute: 1 } },
      asApp,
    );
    expect(made.status).toBe(201);
  });

  it("gives an owner key's quotes and builds N each, then 429, while its address keeps its own budget", async () => {
    const budget = { quotesPerMinute: QUOTES + 2, buildsPerMinute: 2 };
    const made = await api.createKey({ ...(await api.signed(8)), label: 'sniper', budget }, asApp);
    expect(made.status).toBe(201);
    expect(made.body.budget).toEqual(budget);
    const key = { 'x-api-key': made.body.key as string };
    const listed = await api.call('/keys', { headers: key });
    expect(listed.body.keys.find((entry: { id: string }) => entry.id === made.body.id)?.budget).toEqual(budget);

    const pk = `pk=:${Buffer.from(made.body.id).toString('base64')}:`;
    const quotePolicy = `"quotes";q=${budget.quotesPerMinute};w=60;${pk}`;
    for (let i = 0; i < budget.quotesPerMinute; i++) {
      const quoted = await api.quote(key);
      expect(quoted.status).toBe(200);
      expectCounted(quoted, 'quotes', quotePolicy, budget.quotesPerMinute - 1 - i);
    }
    const refusedQuote = await api.quote(key);
    expectRefused(refusedQuote, quotePolicy);
    expect(refusedQuote.body.error.message).toContain(made.body.id);
    // The address it came from spent nothing of its own.
    const ownQuote = await api.quote();
    expect(ownQuote.status).toBe(200);
    expectCounted(ownQuote, 'quotes', `"quotes";q=${QUOTES};w=60`, QUOTES - 1);

    const buildPolicy = `"builds";q=${budget.buildsPerMinute};w=60;${pk}`;
    for (let i = 0; i < budget.buildsPerMinute; i++) {
      const built = await api.build(key);
      expect(built.status, JSON.stringify(built.body)).toBe(200);
      expectCounted(built, 'builds', buildPolicy, budget.buildsPerMinute - 1 - i);
    }
    expectRefused(await api.build(key), buildPolicy);
    const ownBuild = await api.build();
    expect(ownBuild.status, JSON.stringify(ownBuild.body)).toBe(200);
    expectCounted(ownBuild, 'builds', `"builds";q=${BUILDS};w=60`, BUILDS - 1);
  });

  it("gives a key made by signing a challenge nothing: it spends its address's budget", async () => {
    const made = await api.createKey({ ...(await api.signed(9)), label: 'throwaway' });
    expect(made.status).toBe(201);
    expect(made.body.budget).toBeNull();
    const key = { 'x-api-key': made.body.key as string };
    const policy = `"quotes";q=${QUOTES};w=60`;
    // Whatever the address spent before, the key and the address count down one budget together.
    const first = await api.quote();
    expect(first.status).toBe(200);
    let left = first.left?.r ?? -1;
    expect(left).toBeGreaterThan(0);
    while (left > 0) {
      const quoted = await api.quote(left % 2 === 0 ? key : {});
      expectCounted(quoted, 'quotes', policy, --left);
    }
    expectRefused(await api.quote(key), policy);
    expectRefused(await api.quote(), policy);
  });
});
