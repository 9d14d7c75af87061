import { join } from 'node:path';
import Database from 'better-sqlite3';
import { type Address, decodeFunctionData, encodeFunctionData, type Hex, parseEther, zeroAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAccounts } from '../src-main/chain/devnet/testAccounts';
import { TradeRouter } from '../src-main/chain/generated/contracts';
import { type ServiceDrivers, serviceDrivers } from './support/serviceDrivers';
import { startTestService, type TestService } from './support/startTestService';

let service: TestService;
let s: ServiceDrivers;
let token: Address;
let pool: Address;
let image: string;

const APP_TOKEN = 'intents-test-app-token-0000000000';
const asApp = { 'x-app-token': APP_TOKEN };
const account = (index: number) => privateKeyToAccount(testAccounts()[index]?.privateKey ?? '0x');
const USER = 6;
/** The bot: the wallet of the key that prepares requests for USER. */
const BOT = 3;
let botKey: string;

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

/** A request to the API with the headers given, the body sent as JSON as bots do. */
async function call(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const response = await fetch(path.startsWith('http') ? path : `${service.url}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return { status: response.status, headers: response.headers, body: await response.json() } as Answer;
}

async function signed(path: string, wallet: number) {
  const challenge = await call(`${path}?address=${account(wallet).address}`);
  expect(challenge.status).toBe(200);
  return {
    nonce: challenge.body.nonce as string,
    signature: await account(wallet).signMessage({ message: challenge.body.message }),
  };
}

/** A live key of the wallet, with the label given. */
async function keyOf(wallet: number, label: string): Promise<string> {
  const created = await call('/keys', { body: { ...(await signed('/keys/challenge', wallet)), label } });
  expect(created.status).toBe(201);
  return created.body.key;
}

/** The wallet's signed-in browser: its cookie, and the CSRF header every signed-in request carries. */
async function signIn(wallet: number): Promise<Record<string, string>> {
  const answer = await call(`${service.origin}/api/auth/session`, {
    body: await signed(`${service.origin}/api/auth/challenge`, wallet),
    headers: { origin: service.origin },
  });
  expect(answer.status).toBe(200);
  return { cookie: (answer.headers.get('set-cookie') ?? '').split(';')[0] as string, 'x-mm-csrf': '1' };
}

const storedIntents = () => {
  const db = new Database(join(service.dataDir, 'app.sqlite'), { readonly: true });
  try {
    return db.prepare('SELECT count(*) FROM intents').pluck().get() as number;
  } finally {
    db.close();
  }
};

const prepareBuy = (extra: Record<string, unknown> = {}, headers: Record<string, string> = { 'x-api-key': botKey }) =>
  call('/intents', {
    body: { kind: 'prepare_buy', wallet: account(USER).address, token, amount: '0.05', ...extra },
    headers,
  });

/** Prepares a buy with the bot's key and builds it in the app: the request and the build to sign. */
async function builtBuy(extra: Record<string, unknown> = {}) {
  const created = await prepareBuy(extra);
  expect(created.status).toBe(201);
  const built = await call(`/intents/${created.body.id}/build`, { body: {}, headers: asApp });
  expect(built.status, JSON.stringify(built.body)).toBe(200);
  return { id: created.body.id as string, build: built.body.build };
}

const report = (id: string, hash: string, headers: Record<string, string> = asApp) =>
  call(`/intents/${id}/sent`, { body: { hash }, headers });

beforeAll(async () => {
  service = await startTestService(undefined, { appToken: APP_TOKEN });
  s = await serviceDrivers(service);
  const launched = await s.launcher.launch({ creator: 2, saltSeed: 'intents' });
  if (launched.result !== 'ok' || !launched.pool) throw new Error(`launch failed: ${launched.result}`);
  token = launched.token;
  pool = launched.pool;
  botKey = await keyOf(BOT, 'trading bot');
  const upload = await fetch(`${service.url}/media/image`, {
    method: 'POST',
    headers: { 'content-type': 'image/png' },
    body: Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
      'base64',
    ),
  });
  image = ((await upload.json()) as { uri: string }).uri;
});
afterAll(async () => {
  await service?.dispose();
});

describe('prepared requests', () => {
  it('goes from pending to built, sent and confirmed as the app builds, signs and reports it', async () => {
    const created = await prepareBuy();
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      kind: 'prepare_buy',
      wallet: account(USER).address,
      state: 'pending',
      build: null,
      tx: null,
    });
    const { id } = created.body;
    expect(id).toMatch(/^int_[0-9a-f]{24}$/);
    const listed = await call(`/intents?wallet=${account(USER).address}&state=pending`, { headers: asApp });
    expect(listed.body.intents.map((i: { id: string }) => i.id)).toContain(id);

    const built = await call(`/intents/${id}/build`, { body: {}, headers: asApp });
    expect(built.status).toBe(200);
    expect(built.body.state).toBe('built');
    expect(built.body.build).toMatchObject({ side: 'buy', wallet: account(USER).address, requires: [] });
    const receipt = await s.api.signAndSend(USER, built.body.build.tx);
    const sent = await report(id, receipt.transactionHash);
    expect(sent.status).toBe(200);
    // The devnet mines at once, so the report already finds the receipt.
    expect(sent.body).toMatchObject({
      state: 'confirmed',
      tx: { hash: receipt.transactionHash, block: Number(receipt.blockNumber) },
    });
    // The bot follows its own request with its key.
    expect((await call(`/intents/${id}`, { headers: { 'x-api-key': botKey } })).body.state).toBe('confirmed');
    // The same hash again changes nothing; another one is ALREADY_SENT with the first in detail.tx.
    expect((await report(id, receipt.transactionHash)).status).toBe(200);
    const other = await report(id, `0x${'ab'.repeat(32)}`);
    expect(other.status).toBe(409);
    expect(other.body.error).toMatchObject({ code: 'ALREADY_SENT', detail: { tx: receipt.transactionHash } });
    expect((await call(`/intents/${id}/build`, { body: {}, headers: asApp })).body.error.code).toBe('ALREADY_SENT');
  });

  it('checks a reported hash on chain: format, seen, sender and contract', async () => {
    const { id } = (await prepareBuy()).body;
    const bad = await report(id, '0x1234');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('INVALID_HASH');
    const unseen = await report(id, `0x${'cd'.repeat(32)}`);
    expect(unseen.status).toBe(409);
    expect(unseen.body.error.code).toBe('NOT_SEEN_YET');
    // A trade of the router, but by another wallet.
    const foreign = await s.driver.trade(
      7,
      'buyExactIn',
      s.driver.params({ token, pair: s.contracts.wbnb as Address, pool }, parseEther('0.01'), 0n),
      parseEther('0.01'),
    );
    const wrongSender = await report(id, foreign.hash ?? '');
    expect(wrongSender.body.error.code).toBe('WRONG_SENDER');
    // The user's wallet, but a plain transfer rather than a trade of ours.
    const transfer = await s.api.signAndSend(USER, { to: account(8).address, data: '0x', value: '1' });
    const wrongContract = await report(id, transfer.transactionHash);
    expect(wrongContract.status).toBe(400);
    expect(wrongContract.body.error.code).toBe('WRONG_CONTRACT');
    expect((await call(`/intents/${id}`, { headers: asApp })).body.state).toBe('pending');
  });

  it("builds a bot's request with its API key's wallet as the default referrer, as the build endpoint would", async () => {
    const referrer = 4;
    expect((await call('/referrals/register', { body: await signed('/referrals/challenge', referrer) })).status).toBe(
      200,
    );
    const key = await keyOf(referrer, 'referring bot');
    const created = await prepareBuy({}, { 'x-api-key': key });
    expect(created.body.keyWallet).toBe(account(referrer).address);
    // The app builds it without the key: the request remembers whose key made it.
    const built = await call(`/intents/${created.body.id}/build`, { body: {}, headers: asApp });
    expect(built.body.build.referrer, built.body.build.referrerNote).toEqual({
      address: account(referrer).address,
      bps: 20,
    });
  });

  it('records a rejection, and refuses an unknown kind or id', async () => {
    const { id } = (await prepareBuy()).body;
    const rejected = await call(`/intents/${id}/reject`, { body: { reason: 'not today' }, headers: asApp });
    expect(rejected.body).toMatchObject({ state: 'failed', reason: 'rejected by the user: not today' });
    const kind = await prepareBuy({ kind: 'prepare_swap' });
    expect(kind.status).toBe(400);
    expect(kind.body.error).toMatchObject({ code: 'INVALID_KIND', field: 'kind' });
    expect((await prepareBuy({ kind: 'prepare_sell', wallet: 'me' })).body.error.code).toBe('INVALID_ADDRESS');
    for (const id of ['int_nope', `int_${'0'.repeat(24)}`]) {
      const unknown = await call(`/intents/${id}`, { headers: asApp });
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.code).toBe('UNKNOWN_INTENT');
    }
  });

  it("builds with the matching build's errors, leaving the request pending", async () => {
    const { id } = (await prepareBuy({ token: zeroAddress })).body;
    const failed = await call(`/intents/${id}/build`, { body: {}, headers: asApp });
    expect(failed.body.error.code).toBe('UNKNOWN_TOKEN');
    expect((await call(`/intents/${id}`, { headers: asApp })).body.state).toBe('pending');
  });

  it('prepares a launch, built like POST /build/launch', async () => {
    const created = await call('/intents', {
      body: {
        kind: 'prepare_launch',
        wallet: account(USER).address,
        name: 'Prepared',
        symbol: 'PREP',
        marketCapPair: '30',
        image,
      },
      headers: { 'x-api-key': botKey },
    });
    const built = await call(`/intents/${created.body.id}/build`, { body: {}, headers: asApp });
    expect(built.status).toBe(200);
    expect(built.body.build).toMatchObject({ name: 'Prepared', symbol: 'PREP', wallet: account(USER).address });
    const receipt = await s.api.signAndSend(USER, built.body.build.tx);
    const sent = await report(created.body.id, receipt.transactionHash);
    expect(sent.body.state).toBe('confirmed');
  });
});

describe('a known source', () => {
  it('refuses a prepared request from an unknown source and stores nothing', async () => {
    const before = storedIntents();
    const body = { kind: 'prepare_launch', wallet: account(USER).address, name: 'Drain', symbol: 'DRN' };
    const attempts: { name: string; headers: Record<string, string>; contentType?: string }[] = [
      { name: 'no credentials', headers: {} },
      // The attack as it was found: a page elsewhere posting text/plain, which needs no CORS preflight.
      { name: 'a page elsewhere', headers: { origin: 'http://evil.example' }, contentType: 'text/plain' },
      { name: 'a guessed app token', headers: { 'x-app-token': 'guess' } },
      { name: "the wallet's own signed-in browser", headers: await signIn(USER) },
    ];
    for (const attempt of attempts) {
      const response = await fetch(`${service.url}/intents`, {
        method: 'POST',
        headers: { 'content-type': attempt.contentType ?? 'application/json', ...attempt.headers },
        body: JSON.stringify(body),
      });
      const answer = (await response.json()) as any;
      expect(response.status, attempt.name).toBeGreaterThanOrEqual(400);
      expect(response.status, attempt.name).toBeLessThan(500);
      expect(answer.error.fix, attempt.name).toBeTruthy();
      if (!attempt.headers.origin)
        expect([response.status, answer.error.code], attempt.name).toEqual([401, 'API_KEY_REQUIRED']);
    }
    expect(storedIntents()).toBe(before);
    const listed = await call(`/intents?wallet=${account(USER).address}`, { headers: asApp });
    expect(listed.body.intents.filter((i: { request: { name?: string } }) => i.request.name === 'Drain')).toEqual([]);
  });

  it('keeps which key asked (id, label, wallet) or the app, and when', async () => {
    const fromKey = await prepareBuy();
    const keys = await call('/keys', { headers: { 'x-api-key': botKey } });
    const keyId = keys.body.keys.find((k: { label: string }) => k.label === 'trading bot').id;
    expect(fromKey.body.source).toEqual({
      kind: 'key',
      key: { id: keyId, label: 'trading bot', wallet: account(BOT).address },
      at: fromKey.body.createdAt,
    });
    const fromApp = await prepareBuy({}, asApp);
    expect(fromApp.status).toBe(201);
    expect(fromApp.body.source).toEqual({ kind: 'app', at: fromApp.body.createdAt });
    expect(fromApp.body.keyWallet).toBeNull();
    // A key cannot pass itself off as the app by its label: it stays a key, with its wallet.
    const impostor = await keyOf(9, 'this app');
    const posing = await prepareBuy({}, { 'x-api-key': impostor });
    expect(posing.body.source).toMatchObject({ kind: 'key', key: { label: 'this app', wallet: account(9).address } });
    // The list says the same.
    const listed = await call(`/intents?wallet=${account(USER).address}`, { headers: asApp });
    const byId = new Map(listed.body.intents.map((i: { id: string; source: unknown }) => [i.id, i.source]));
    expect(byId.get(posing.body.id)).toEqual(posing.body.source);
    expect(byId.get(fromApp.body.id)).toEqual(fromApp.body.source);
  });

  it("lists a wallet's requests only for its key, its signed-in browser or the app", async () => {
    const mine = (await prepareBuy()).body.id as string;
    const userList = `/intents?wallet=${account(USER).address}`;
    const ids = (answer: Answer) => answer.body.intents.map((i: { id: string }) => i.id);
    // Nobody, and a key of another wallet (the bot's own, which prepared it), may not list them.
    const anonymous = await call(userList);
    expect([anonymous.status, anonymous.body.error.code]).toEqual([401, 'API_KEY_REQUIRED']);
    const otherKey = await call(userList, { headers: { 'x-api-key': botKey } });
    expect([otherKey.status, otherKey.body.error.code]).toEqual([401, 'API_KEY_REQUIRED']);
    // A browser signed in as another wallet may not; the wallet's own may, with the CSRF header only.
    const stranger = await signIn(11);
    const mismatch = await call(userList, { headers: stranger });
    expect([mismatch.status, mismatch.body.error.code]).toEqual([401, 'SESSION_WALLET_MISMATCH']);
    const session = await signIn(USER);
    const noCsrf = await call(userList, { headers: { cookie: session.cookie as string } });
    expect([noCsrf.status, noCsrf.body.error.code]).toEqual([403, 'CSRF_REQUIRED']);
    expect(ids(await call(userList, { headers: session }))).toContain(mine);
    // The wallet's own key may, and the app.
    const userKey = await keyOf(USER, 'my own bot');
    expect(ids(await call(userList, { headers: { 'x-api-key': userKey } }))).toContain(mine);
    expect(ids(await call(userList, { headers: asApp }))).toContain(mine);
  });

  it('lets the key that asked read its request, and only the wallet or the app build, reject or report it', async () => {
    const { id } = (await prepareBuy()).body;
    expect((await call(`/intents/${id}`, { headers: { 'x-api-key': botKey } })).status).toBe(200);
    // Another key, of yet another wallet, reads nothing.
    const stranger = await keyOf(12, 'stranger');
    const read = await call(`/intents/${id}`, { headers: { 'x-api-key': stranger } });
    expect([read.status, read.body.error.code]).toEqual([401, 'API_KEY_REQUIRED']);
    expect((await call(`/intents/${id}`)).body.error.code).toBe('API_KEY_REQUIRED');
    // The bot that asked cannot build, reject or report for the wallet: only the wallet's parties can.
    for (const action of ['build', 'reject', 'sent']) {
      for (const headers of [{ 'x-api-key': botKey }, { 'x-api-key': stranger }, await signIn(11), {}]) {
        const answer = await call(`/intents/${id}/${action}`, { body: { hash: `0x${'ab'.repeat(32)}` }, headers });
        expect(answer.status, `${action} ${JSON.stringify(headers)}`).toBe(401);
      }
    }
    expect((await call(`/intents/${id}`, { headers: asApp })).body.state).toBe('pending');
    const built = await call(`/intents/${id}/build`, { body: {}, headers: await signIn(USER) });
    expect(built.body.state).toBe('built');
    const rejected = await call(`/intents/${id}/reject`, {
      body: {},
      headers: { 'x-api-key': await keyOf(USER, 'again') },
    });
    expect(rejected.body.state).toBe('failed');
  });
});

describe('transaction reporting proves the request was fulfilled', () => {
  it('does not confirm a request with another trade by the same wallet', async () => {
    // A wide slippage, so the request's own trade still fills after the wallet's other trades moved the price.
    const { id, build } = await builtBuy({ slippageBps: 3000 });
    const otherTrades = [
      { wallet: account(USER).address, token, amount: '0.02' },
      { wallet: account(USER).address, token, amount: '0.05', exact: 'out' },
    ];
    for (const body of otherTrades) {
      const other = await call('/build/buy', { body });
      expect(other.status, JSON.stringify(other.body)).toBe(200);
      const receipt = await s.api.signAndSend(USER, other.body.tx);
      const answer = await report(id, receipt.transactionHash);
      expect([answer.status, answer.body.error.code], JSON.stringify(body)).toEqual([400, 'WRONG_CONTRACT']);
    }
    // A sale needs the Permit2 approval first; its hash is no trade of this request either.
    const sell = await call('/build/sell', { body: { wallet: account(USER).address, token, amount: '1' } });
    for (const step of sell.body.requires ?? []) await s.api.signAndSend(USER, step.tx);
    const sellBuild =
      sell.body.requires.length > 0
        ? (await call('/build/sell', { body: { wallet: account(USER).address, token, amount: '1' } })).body
        : sell.body;
    const sold = await s.api.signAndSend(USER, sellBuild.tx);
    expect((await report(id, sold.transactionHash)).body.error.code).toBe('WRONG_CONTRACT');
    expect((await call(`/intents/${id}`, { headers: asApp })).body).toMatchObject({ state: 'built', tx: null });
    // The request's own trade confirms it.
    const receipt = await s.api.signAndSend(USER, build.tx);
    expect((await report(id, receipt.transactionHash)).body.state).toBe('confirmed');
  });

  it('does not confirm a request with its own trade sent with a looser limit than the slippage allows', async () => {
    const { id, build } = await builtBuy({ slippageBps: 100 });
    const { functionName, args } = decodeFunctionData({ abi: TradeRouter.abi, data: build.tx.data as Hex });
    expect(functionName).toBe('buyExactIn');
    const [params] = args as unknown as [{ limit: bigint }];
    // The same trade, but accepting any amount out: what a tampered build would have the person sign.
    const loose = encodeFunctionData({
      abi: TradeRouter.abi,
      functionName: 'buyExactIn',
      args: [{ ...params, limit: 1n }] as never,
    });
    const receipt = await s.api.signAndSend(USER, { ...build.tx, data: loose, gas: undefined });
    const answer = await report(id, receipt.transactionHash);
    expect([answer.status, answer.body.error.code]).toEqual([400, 'WRONG_CONTRACT']);
    expect((await call(`/intents/${id}`, { headers: asApp })).body.state).toBe('built');
  });

  it('lets one hash confirm one request only', async () => {
    const first = await builtBuy({ amount: '0.03' });
    const second = await builtBuy({ amount: '0.03' });
    const receipt = await s.api.signAndSend(USER, first.build.tx);
    expect((await report(first.id, receipt.transactionHash)).body.state).toBe('confirmed');
    const again = await report(second.id, receipt.transactionHash);
    expect([again.status, again.body.error.code]).toEqual([409, 'ALREADY_SENT']);
    expect(again.body.error.detail).toEqual({ tx: receipt.transactionHash, request: first.id });
    expect((await call(`/intents/${second.id}`, { headers: asApp })).body).toMatchObject({ state: 'built', tx: null });
    // Two reports at once, of one new hash, for two requests: one wins.
    const third = await builtBuy({ amount: '0.03' });
    const fourth = await builtBuy({ amount: '0.03' });
    const shared = await s.api.signAndSend(USER, third.build.tx);
    const answers = await Promise.all([
      report(third.id, shared.transactionHash),
      report(fourth.id, shared.transactionHash),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const states = await Promise.all(
      [third.id, fourth.id].map(async (id) => (await call(`/intents/${id}`, { headers: asApp })).body.state),
    );
    expect(states.sort()).toEqual(['built', 'confirmed']);
  });

  it('confirms a launch request only with the launch of the token its build announced', async () => {
    const body = { wallet: account(USER).address, name: 'Announced', symbol: 'ANN', marketCapPair: '30', image };
    const created = await call('/intents', {
      body: { kind: 'prepare_launch', ...body },
      headers: { 'x-api-key': botKey },
    });
    const built = await call(`/intents/${created.body.id}/build`, { body: {}, headers: asApp });
    expect(built.status).toBe(200);
    const announced = built.body.build.token as Address;
    // The same wallet launches the same name and symbol at another address (another salt): not the announced token.
    const other = await call('/build/launch', { body });
    expect(other.status).toBe(200);
    expect(other.body.token).not.toBe(announced);
    const otherLaunch = await s.api.signAndSend(USER, other.body.tx);
    const refused = await report(created.body.id, otherLaunch.transactionHash);
    expect([refused.status, refused.body.error.code]).toEqual([400, 'WRONG_CONTRACT']);
    expect(refused.body.error.message).toContain(announced);
    // A trade by the wallet is not a launch at all.
    const trade = await call('/build/buy', { body: { wallet: account(USER).address, token, amount: '0.01' } });
    const traded = await s.api.signAndSend(USER, trade.body.tx);
    expect((await report(created.body.id, traded.transactionHash)).body.error.code).toBe('WRONG_CONTRACT');
    const launched = await s.api.signAndSend(USER, built.body.build.tx);
    expect((await report(created.body.id, launched.transactionHash)).body.state).toBe('confirmed');
  });

  it('refuses a report for a request never built: no transaction is its own yet', async () => {
    const { id } = (await prepareBuy()).body;
    const other = await call('/build/buy', { body: { wallet: account(USER).address, token, amount: '0.05' } });
    const receipt = await s.api.signAndSend(USER, other.body.tx);
    const answer = await report(id, receipt.transactionHash);
    expect([answer.status, answer.body.error.code]).toEqual([400, 'WRONG_CONTRACT']);
    expect((await call(`/intents/${id}`, { headers: asApp })).body.state).toBe('pending');
  });
});
