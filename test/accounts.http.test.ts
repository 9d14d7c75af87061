import { type Address, getAbiItem } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAccounts } from '../src-main/chain/devnet/testAccounts';
import { TradeRouter } from '../src-main/chain/generated/contracts';
import { PancakeV3Factory, PancakeV3Pool } from '../src-main/chain/generated/vendor';
import { DEFAULT_PUBLIC_LINK_BASE } from '../src-main/core/appPages';
import { type ServiceDrivers, serviceDrivers } from './support/serviceDrivers';
import { startTestService, type TestService } from './support/startTestService';
import { expectNotStored } from './support/storedFiles';

/** A clock the test moves, to reach a challenge's expiry without waiting five minutes. */
let offsetMs = 0;
const now = () => Date.now() + offsetMs;

let service: TestService;
let s: ServiceDrivers;
let token: Address;

const account = (index: number) => privateKeyToAccount(testAccounts()[index]?.privateKey ?? '0x');

beforeAll(async () => {
  service = await startTestService(undefined, { now });
  s = await serviceDrivers(service);
  // A token to build buys of, with a referrer or without.
  const launched = await s.launcher.launch({ creator: 2, saltSeed: 'accounts' });
  if (launched.result !== 'ok') throw new Error(`launch failed: ${launched.result}`);
  token = launched.token;
  await service.indexer.waitFor(await s.api.client.getBlockNumber({ cacheTime: 0 }));
});
afterAll(async () => {
  await service?.dispose();
});

const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  fetch(`${service.url}${path}`, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  }).then(async (response) => ({ status: response.status, body: (await response.json()) as any }));

/** Gets a challenge for the wallet and signs it with `signer` (the wallet itself unless told otherwise). */
async function signedChallenge(path: string, wallet: number, signer = wallet) {
  const challenge = await s.api.get(`${path}?address=${account(wallet).address}`);
  expect(challenge.status).toBe(200);
  const signature = await account(signer).signMessage({ message: challenge.body.message });
  return { pair: { nonce: challenge.body.nonce as string, signature }, challenge: challenge.body };
}

/** The nonce and signature of a signed challenge: the body the endpoints that redeem one take, and nothing else. */
const signed = async (path: string, wallet: number, signer = wallet) =>
  (await signedChallenge(path, wallet, signer)).pair;

const buy = (wallet: number, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  send('POST', '/build/buy', { wallet: account(wallet).address, token, amount: '0.01', ...extra }, headers);

describe('referrer registration', () => {
  it('issues a challenge with the exact message, an expiry five minutes out and the next step', async () => {
    const before = now();
    const { challenge } = await signedChallenge('/referrals/challenge', 5);
    expect(challenge.nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(challenge.expires).toBeGreaterThanOrEqual(before + 5 * 60_000);
    expect(challenge.expires).toBeLessThanOrEqual(now() + 5 * 60_000);
    expect(challenge.message).toContain(account(5).address);
    expect(challenge.message).toContain(challenge.nonce);
    expect(challenge.next).toMatch(/POST \/referrals\/register/);
    const missing = await s.api.get('/referrals/challenge');
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'INVALID_ADDRESS', field: 'address' });
  });

  it('registers a signer once its signature checks, after which trades may name it as referrer', async () => {
    expect((await buy(8, { referrer: account(5).address })).body.error.code).toBe('REFERRER_NOT_REGISTERED');
    const { nonce, signature } = await signed('/referrals/challenge', 5);
    const registered = await s.api.post('/referrals/register', { nonce, signature });
    expect(registered.status).toBe(200);
    expect(registered.body).toMatchObject({ address: account(5).address, registered: true });
    const built = await buy(8, { referrer: account(5).address });
    expect(built.status).toBe(200);
    expect(built.body.referrer).toEqual({ address: account(5).address, bps: 20 });
  });

  it('refuses a missing, malformed, reused, expired or wrong-wallet signature with INVALID_SIGNATURE', async () => {
    const cases: [string, () => Promise<{ nonce?: string; signature?: string }>][] = [
      ['missing signature', async () => ({ nonce: (await signed('/referrals/challenge', 6)).nonce })],
      ['missing nonce', async () => ({ signature: (await signed('/referrals/challenge', 6)).signature })],
      ['malformed', async () => ({ nonce: (await signed('/referrals/challenge', 6)).nonce, signature: '0x1234' })],
      ['unknown nonce', async () => ({ ...(await signed('/referrals/challenge', 6)), nonce: 'f'.repeat(32) })],
      ['wrong wallet', async () => signed('/referrals/challenge', 6, 7)],
      [
        'reused',
        async () => {
          const pair = await signed('/referrals/challenge', 6);
          expect((await s.api.post('/referrals/register', pair)).status).toBe(200);
          return pair;
        },
      ],
      [
        'expired',
        async () => {
          const pair = await signed('/referrals/challenge', 6);
          offsetMs += 5 * 60_000 + 1;
          return pair;
        },
      ],
      ['a key challenge', async () => signed('/keys/challenge', 6)],
    ];
    for (const [what, make] of cases) {
      const answer = await s.api.post('/referrals/register', await make());
      expect(answer.status, what).toBe(401);
      expect(answer.body.error.code, what).toBe('INVALID_SIGNATURE');
      expect(answer.body.error.fix, what).toBeTruthy();
    }
    offsetMs = 0;
  });
});

describe('API keys', () => {
  let key: string;
  let id: string;

  it('creates a key for the signer, shown once, and refuses the same challenge twice', async () => {
    const pair = await signed('/keys/challenge', 9);
    const noLabel = await s.api.post('/keys', pair);
    expect(noLabel.body.error).toMatchObject({ code: 'INVALID_BODY', field: 'label' });
    // The bad label did not use the challenge up.
    const created = await s.api.post('/keys', { ...pair, label: 'trading bot' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ wallet: account(9).address, label: 'trading bot', revoked: false });
    expect(created.body.key).toMatch(/^lpc_live_[0-9A-Za-z]{40}$/);
    expect(created.body.id).toMatch(/^key_[0-9a-f]{16}$/);
    key = created.body.key;
    id = created.body.id;
    expect((await s.api.post('/keys', { ...pair, label: 'again' })).body.error.code).toBe('INVALID_SIGNATURE');
  });

  it("lists the key's wallet's keys with the key, and only with a live key", async () => {
    const list = await send('GET', '/keys', undefined, { 'x-api-key': key });
    expect(list.status).toBe(200);
    expect(list.body.wallet).toBe(account(9).address);
    expect(list.body.keys).toEqual([expect.objectContaining({ id, label: 'trading bot', hint: key.slice(-4) })]);
    expect(JSON.stringify(list.body)).not.toContain(key);
    expect((await send('GET', '/keys')).body.error.code).toBe('API_KEY_REQUIRED');
    // The live key with its last character changed (to another one: a key may end in x).
    const altered = `${key.slice(0, -1)}${key.endsWith('x') ? 'y' : 'x'}`;
    for (const bad of ['nonsense', `lpc_live_${'A'.repeat(40)}`, altered]) {
      const answer = await send('GET', '/keys', undefined, { 'x-api-key': bad });
      expect(answer.status, bad).toBe(401);
      expect(answer.body.error.code, bad).toBe('INVALID_API_KEY');
      // Any endpoint answers a bad key the same way.
      expect((await send('GET', '/settings', undefined, { 'x-api-key': bad })).body.error.code).toBe('INVALID_API_KEY');
    }
  });

  it("makes the key's wallet the default referrer, with a note when it cannot be", async () => {
    const header = { 'x-api-key': key };
    const unregistered = await buy(8, {}, header);
    expect(unregistered.status).toBe(200);
    expect(unregistered.body.referrer).toBeNull();
    expect(unregistered.body.referrerNote).toMatch(/neither a registered referrer nor a token creator/);
    const pair = await signed('/referrals/challenge', 9);
    expect((await s.api.post('/referrals/register', pair)).status).toBe(200);
    const referred = await buy(8, {}, header);
    expect(referred.body.referrer).toEqual({ address: account(9).address, bps: 20 });
    expect(referred.body.referrerNote).toBeUndefined();
    const named = await buy(8, { referrer: null }, header);
    expect(named.body.referrer).toBeNull();
    expect(named.body.referrerNote).toBeUndefined();
    const own = await buy(9, {}, header);
    expect(own.body.referrer).toBeNull();
    expect(own.body.referrerNote).toMatch(/is the trading wallet/);
  });

  it('revokes a key of the wallet, after which it is refused everywhere', async () => {
    const header = { 'x-api-key': key };
    expect((await send('DELETE', '/keys/not-an-id', undefined, header)).body.error.code).toBe('INVALID_ID');
    expect((await send('DELETE', `/keys/key_${'0'.repeat(16)}`, undefined, header)).body.error.code).toBe(
      'KEY_NOT_FOUND',
    );
    const revoked = await send('DELETE', `/keys/${id}`, undefined, header);
    expect(revoked.status).toBe(200);
    expect(revoked.body.key).toMatchObject({ id, revoked: true });
    for (const path of ['/keys', '/settings']) {
      const answer = await send('GET', path, undefined, header);
      expect(answer.status).toBe(401);
      expect(answer.body.error.code).toBe('API_KEY_REVOKED');
    }
    expect((await buy(8, {}, header)).body.error.code).toBe('API_KEY_REVOKED');
  });

  it('holds at most ten active keys a wallet', async () => {
    const created: string[] = [];
    for (let i = 0; i < 10; i++) {
      const answer = await s.api.post('/keys', { ...(await signed('/keys/challenge', 10)), label: `bot ${i}` });
      expect(answer.status).toBe(201);
      created.push(answer.body.key);
    }
    const eleventh = await s.api.post('/keys', { ...(await signed('/keys/challenge', 10)), label: 'one too many' });
    expect(eleventh.status).toBe(400);
    expect(eleventh.body.error.code).toBe('KEY_LIMIT');
    const list = await send('GET', '/keys', undefined, { 'x-api-key': created[0] as string });
    expect(list.body.keys).toHaveLength(10);
  });

  it('keeps no key in clear in the database', async () => {
    const created = await s.api.post('/keys', { ...(await signed('/keys/challenge', 11)), label: 'secret check' });
    const secret = (created.body.key as string).slice('lpc_live_'.length);
    expectNotStored(service.dataDir, secret);
  });
});

describe('referral links', () => {
  it("links to the app's pages with the referrer in r, and refuses any other path with INVALID_PATH", async () => {
    const referrer = account(5).address;
    const launches = await s.api.get(`/referrals/${referrer}/link?path=${encodeURIComponent('/launches')}`);
    expect(launches.status).toBe(200);
    // With no public base configured, links open the app by its own scheme: never this machine's 127.0.0.1 address.
    expect(launches.body).toEqual({
      referrer,
      path: '/launches',
      link: `${DEFAULT_PUBLIC_LINK_BASE}/launches?r=${referrer}`,
    });
    const tokenPage = await s.api.get(
      `/referrals/${referrer}/link?path=${encodeURIComponent(`/token/${token}?side=sell`)}`,
    );
    expect(tokenPage.body.link).toBe(`${DEFAULT_PUBLIC_LINK_BASE}/token/${token}?side=sell&r=${referrer}`);
    const record = (await s.api.get(`/referrals/${referrer}`)).body;
    expect(record.links).toEqual({
      base: `${DEFAULT_PUBLIC_LINK_BASE}/?r=${referrer}`,
      token: `${DEFAULT_PUBLIC_LINK_BASE}/token/{token}?r=${referrer}`,
      launch: `${DEFAULT_PUBLIC_LINK_BASE}/launch?r=${referrer}`,
    });
    expect(JSON.stringify([launches.body, tokenPage.body, record.links])).not.toContain('127.0.0.1');
    for (const path of [
      '',
      'launches',
      '//evil.example/x',
      '/admin',
      '/token/0x12',
      'http://evil.example/',
      '/a\\b',
      '/launches x',
    ]) {
      const answer = await s.api.get(`/referrals/${referrer}/link?path=${encodeURIComponent(path)}`);
      expect(answer.status, path).toBe(400);
      expect(answer.body.error, path).toMatchObject({ code: 'INVALID_PATH', field: 'path' });
    }
    expect((await s.api.get(`/referrals/${referrer}/link`)).body.error.code).toBe('INVALID_PATH');
    expect((await s.api.get('/referrals/0x12/link?path=/')).body.error.code).toBe('INVALID_ADDRESS');
  });
});

describe('bindings', () => {
  it('binds a wallet to its first referrer for life: another is ALREADY_BOUND, and a key cannot take its place', async () => {
    // Wallet 19 trades through referrer 5 (registered above), which binds it on the router.
    const first = await buy(19, { referrer: account(5).address });
    expect(first.status).toBe(200);
    await s.api.signAndSend(19, first.body.tx);
    // Wallet 12 registers and takes a key.
    expect((await s.api.post('/referrals/register', await signed('/referrals/challenge', 12))).status).toBe(200);
    const key = (await s.api.post('/keys', { ...(await signed('/keys/challenge', 12)), label: 'binding' })).body.key;

    const other = await buy(19, { referrer: account(12).address });
    expect(other.status).toBe(409);
    expect(other.body.error).toMatchObject({
      code: 'ALREADY_BOUND',
      field: 'referrer',
      detail: { boundTo: account(5).address },
    });
    const keyed = await buy(19, {}, { 'x-api-key': key });
    expect(keyed.status).toBe(200);
    expect(keyed.body.referrer).toBeNull();
    expect(keyed.body.referrerNote).toMatch(/is bound to referrer/);
    expect((await buy(19, { referrer: account(5).address })).body.referrer.address).toBe(account(5).address);
    expect((await buy(19, { referrer: null })).status).toBe(200);
  });
});

describe('the referrer record', () => {
  it('adds up the cuts and the lifetime share from the chain, in BNB and in dollars at the trade time price', async () => {
    await service.indexer.waitFor(await s.api.client.getBlockNumber({ cacheTime: 0 }));
    const referrer = account(5).address;
    // Every trade through referrer 5, straight from the router's logs.
    const logs = await s.api.client.getLogs({
      address: s.contracts.router as Address,
      event: getAbiItem({ abi: TradeRouter.abi, name: 'Trade' }),
      args: { referrer },
      fromBlock: 0n,
    });
    expect(logs.length).toBeGreaterThan(0);
    const cuts = logs.reduce((sum, log) => sum + (log.args.referrerCut ?? 0n), 0n);
    let cents = 0n;
    const dollarPool = await s.api.client.readContract({
      address: s.contracts.pancakeFactory as Address,
      abi: PancakeV3Factory.abi,
      functionName: 'getPool',
      args: [s.contracts.wbnb as Address, s.contracts.usdt as Address, 500],
    });
    for (const log of logs) {
      const [sqrtPriceX96] = await s.api.client.readContract({
        address: dollarPool,
        abi: PancakeV3Pool.abi,
        functionName: 'slot0',
        blockNumber: log.blockNumber,
      });
      const priceX192 = sqrtPriceX96 * sqrtPriceX96;
      const wbnbFirst = BigInt(s.contracts.wbnb as Address) < BigInt(s.contracts.usdt as Address);
      const [usdPer, bnbPer] = wbnbFirst ? [priceX192, 1n << 192n] : [1n << 192n, priceX192];
      cents += ((log.args.referrerCut ?? 0n) * usdPer * 100n) / bnbPer / 10n ** 18n;
    }
    // Wallet 19 is bound to 5: its trades' income (fee less cut) is what the lifetime share is taken from.
    const bound = logs.filter((log) => log.args.wallet === account(19).address);
    const income = bound.reduce((sum, log) => sum + (log.args.siteFee ?? 0n) - (log.args.referrerCut ?? 0n), 0n);

    const record = await s.api.get(`/referrals/${referrer}`);
    expect(record.status).toBe(200);
    expect(record.body).toMatchObject({
      address: referrer,
      eligible: true,
      registered: true,
      active: true,
      links: {
        base: `${DEFAULT_PUBLIC_LINK_BASE}/?r=${referrer}`,
        token: `${DEFAULT_PUBLIC_LINK_BASE}/token/{token}?r=${referrer}`,
        launch: `${DEFAULT_PUBLIC_LINK_BASE}/launch?r=${referrer}`,
      },
      rates: { instantBps: 20, lifetimeShareBps: 1500 },
      lifetime: {
        referred: 1,
        allTimePaidWei: '0',
        boundTo: null,
        todayEstimateWei: ((income * 1500n) / 10_000n).toString(),
      },
    });
    for (const window of ['h24', 'd7', 'd30', 'all']) {
      const earnings = record.body.instant.earnings[window];
      expect(earnings.byCurrency, window).toEqual([
        expect.objectContaining({
          currency: { address: s.contracts.wbnb, decimals: 18, symbol: 'BNB' },
          wei: cuts.toString(),
          trades: logs.length,
        }),
      ]);
      expect(earnings.usd, window).toBe(Number(cents) / 100);
      expect(earnings.unpriced, window).toEqual([]);
    }
    const wallet = await s.api.get(`/referrals/${account(19).address}`);
    expect(wallet.body).toMatchObject({
      eligible: false,
      registered: false,
      active: false,
      lifetime: { referred: 0, todayEstimateWei: null, boundTo: referrer },
    });
    expect((await s.api.get('/referrals/0x12')).body.error.code).toBe('INVALID_ADDRESS');
  });
});

describe('keys switched off', () => {
  it('answers KEYS_OFF for key endpoints and for any request carrying a key', async () => {
    const off = await startTestService(undefined, { keys: false });
    try {
      const challenge = await fetch(`${off.url}/keys/challenge?address=${account(3).address}`);
      expect(challenge.status).toBe(503);
      expect(((await challenge.json()) as any).error.code).toBe('KEYS_OFF');
      const keyed = await fetch(`${off.url}/settings`, { headers: { 'x-api-key': `lpc_live_${'A'.repeat(40)}` } });
      expect(((await keyed.json()) as any).error.code).toBe('KEYS_OFF');
      expect((await fetch(`${off.url}/settings`)).status).toBe(200);
    } finally {
      await off.dispose();
    }
  });
});
