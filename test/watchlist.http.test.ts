import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Address, formatEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, describe, expect, it } from 'vitest';
import { type TestAccount, testAccounts } from '../src-main/chain/devnet/testAccounts';
import { jsonInit } from './support/jsonInit';
import { type ServiceDrivers, serviceDrivers } from './support/serviceDrivers';
import { startTestService, type TestService } from './support/startTestService';

/**
 * The watchlist and alerts API over real HTTP on the devnet: stars and rules written by the app's own page only, kept
 * in the data directory across a restart, every bad input answered with the spec's code; and the alerts the index
 * raises from real launches and trades (a watched creator's launch, a rule crossed once by a real buy).
 */

const APP_TOKEN = 'watchlist-test-token-000000000000';
const dataDir = mkdtempSync(join(tmpdir(), 'companion-watchlist-'));
const started: TestService[] = [];
afterAll(async () => {
  for (const service of started) await service.close().catch(() => {});
  rmSync(dataDir, { recursive: true, force: true });
  for (const service of started) service.answers.assertNone();
});

const address = (index: number) => testAccounts()[index]?.address as Address;
const CREATOR = address(4);
const OTHER_CREATOR = address(5);

async function start(): Promise<{ service: TestService; drivers: ServiceDrivers }> {
  const service = await startTestService(dataDir, { appToken: APP_TOKEN });
  started.push(service);
  return { service, drivers: await serviceDrivers(service) };
}

/** A request to the API, as the app's page (with the run's token) or as anyone else. */
async function call(service: TestService, method: string, path: string, body?: unknown, asApp = true) {
  const response = await fetch(
    `${service.url}${path}`,
    jsonInit({
      method,
      headers: asApp ? { 'x-app-token': APP_TOKEN } : {},
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
  return { status: response.status, body: (await response.json()) as any };
}

/** Launches from test account `creator` and waits until the index and the alerts have looked at it. */
async function launchFrom(service: TestService, drivers: ServiceDrivers, creator: number, saltSeed: string) {
  const launched = await drivers.launcher.launch({ creator, saltSeed });
  if (launched.result !== 'ok') throw new Error(`launch failed: ${launched.result}`);
  await settle(service, drivers);
  return launched.token;
}

async function settle(service: TestService, drivers: ServiceDrivers) {
  await service.indexer.waitFor(await drivers.api.client.getBlockNumber({ cacheTime: 0 }));
  await service.alerts.settled();
}

/** Buys `bnb` of `token` for test account `index` through the API's build. */
async function buy(drivers: ServiceDrivers, index: number, token: Address, bnb: string) {
  const { status, body } = await drivers.api.post('/build/buy', { wallet: address(index), token, amount: bnb });
  expect(status).toBe(200);
  await drivers.api.signAndSend(index, body.tx);
}

describe('watchlist and alerts API', () => {
  let service: TestService;
  let drivers: ServiceDrivers;
  let token: Address;
  let after: number;

  it('answers every bad input with the spec code, and refuses writes from anyone but the app', async () => {
    ({ service, drivers } = await start());
    token = await launchFrom(service, drivers, 2, 'watchlist-token');
    const put = (path: string, body?: unknown, asApp = true) => call(service, 'PUT', path, body, asApp);
    const expectError = (answer: { status: number; body: any }, status: number, code: string, field?: string) => {
      expect(answer.status).toBe(status);
      expect(answer.body.error.code).toBe(code);
      expect(answer.body.error.fix).toBeTruthy();
      if (field) expect(answer.body.error.field).toBe(field);
    };
    const rule = { metric: 'price', direction: 'above', currency: 'usd', figure: '1' };

    expectError(await put(`/watchlist/tokens/${token}`, {}, false), 401, 'API_KEY_REQUIRED');
    expectError(await put(`/watchlist/creators/${CREATOR}`, undefined, false), 401, 'API_KEY_REQUIRED');
    expectError(
      await call(service, 'DELETE', `/watchlist/creators/${CREATOR}`, undefined, false),
      401,
      'API_KEY_REQUIRED',
    );
    expectError(await put('/alerts/kinds', { launch: false }, false), 401, 'API_KEY_REQUIRED');
    expectError(await call(service, 'GET', '/alerts', undefined, false), 401, 'API_KEY_REQUIRED');
    // A body that is not declared JSON is refused as the body's fault, never as a failure of the server.
    for (const path of ['/alerts/kinds', `/watchlist/tokens/${token}`]) {
      const plain = await fetch(`${service.url}${path}`, {
        method: 'PUT',
        headers: { 'x-app-token': APP_TOKEN, 'content-type': 'text/plain' },
        body: '{"launch":false}',
      });
      expectError({ status: plain.status, body: await plain.json() }, 400, 'INVALID_BODY');
    }
    expectError(await put('/watchlist/tokens/0x1234', {}), 400, 'INVALID_ADDRESS', 'address');
    expectError(await put('/watchlist/creators/nobody'), 400, 'INVALID_ADDRESS', 'address');
    expectError(await put(`/watchlist/tokens/0x${'ab'.repeat(20)}`, {}), 400, 'UNKNOWN_TOKEN');
    expectError(
      await put(`/watchlist/tokens/${token}`, { alert: { ...rule, metric: 'volume' } }),
      400,
      'INVALID_BODY',
      'alert.metric',
    );
    expectError(
      await put(`/watchlist/tokens/${token}`, { alert: { ...rule, direction: 'up' } }),
      400,
      'INVALID_BODY',
      'alert.direction',
    );
    expectError(
      await put(`/watchlist/tokens/${token}`, { alert: { ...rule, currency: 'eur' } }),
      400,
      'INVALID_BODY',
      'alert.currency',
    );
    expectError(
      await put(`/watchlist/tokens/${token}`, { alert: { ...rule, figure: '-1' } }),
      400,
      'INVALID_AMOUNT',
      'alert.figure',
    );
    expectError(
      await put(`/watchlist/tokens/${token}`, { alert: { ...rule, figure: 5 } }),
      400,
      'INVALID_AMOUNT',
      'alert.figure',
    );
    expectError(
      await put(`/watchlist/tokens/${token}`, { alert: { ...rule, figure: '0' } }),
      400,
      'INVALID_AMOUNT',
      'alert.figure',
    );
    expectError(
      await put(`/watchlist/tokens/${token}`, { alert: { ...rule, figure: `0.${'1'.repeat(19)}` } }),
      400,
      'TOO_MANY_DECIMALS',
      'alert.figure',
    );
    expectError(await put(`/watchlist/tokens/${token}`, { alrt: null }), 400, 'INVALID_BODY');
    expectError(await put('/alerts/kinds', { launch: 'no' }), 400, 'INVALID_BODY', 'launch');
    expectError(await put('/alerts/kinds', { sounds: true }), 400, 'INVALID_BODY');
    expectError(await call(service, 'GET', '/alerts?after=yesterday'), 400, 'INVALID_CURSOR', 'after');
    // Nothing refused was stored.
    expect((await call(service, 'GET', '/watchlist', undefined, false)).body).toEqual({ tokens: [], creators: [] });
  });

  it('adds, lists and removes tokens and creators; anyone may read the list', async () => {
    const starred = await call(service, 'PUT', `/watchlist/tokens/${token}`, {});
    expect(starred.status).toBe(200);
    expect(starred.body.tokens).toEqual([{ address: token, addedAt: expect.any(String), alert: null }]);
    await call(service, 'PUT', `/watchlist/creators/${CREATOR}`);
    // Starring again changes nothing; lower-case addresses are the same wallet.
    await call(service, 'PUT', `/watchlist/creators/${OTHER_CREATOR.toLowerCase()}`);
    await call(service, 'PUT', `/watchlist/creators/${OTHER_CREATOR}`);
    const listed = await call(service, 'GET', '/watchlist', undefined, false);
    expect(listed.body.creators.map((creator: { address: Address }) => creator.address)).toEqual([
      CREATOR,
      OTHER_CREATOR,
    ]);
    const removed = await call(service, 'DELETE', `/watchlist/creators/${OTHER_CREATOR}`);
    expect(removed.status).toBe(200);
    expect(removed.body.creators.map((creator: { address: Address }) => creator.address)).toEqual([CREATOR]);
    // Removing what is not there is no error.
    expect((await call(service, 'DELETE', `/watchlist/creators/${OTHER_CREATOR}`)).status).toBe(200);
  });

  it("raises one alert when a watched creator launches, none for another's, none once the kind is off", async () => {
    after = (await call(service, 'GET', '/alerts')).body.latest;
    const launched = await launchFrom(service, drivers, 4, 'watched-creator');
    await launchFrom(service, drivers, 5, 'other-creator');
    const feed = await call(service, 'GET', `/alerts?after=${after}`);
    expect(feed.status).toBe(200);
    expect(feed.body.alerts).toEqual([
      expect.objectContaining({
        kind: 'launch',
        path: `/token/${launched}`,
        title: expect.stringContaining('launched'),
      }),
    ]);
    after = feed.body.latest;

    expect((await call(service, 'PUT', '/alerts/kinds', { launch: false })).body).toEqual({
      request: true,
      launch: false,
      crossing: true,
      transaction: true,
    });
    await launchFrom(service, drivers, 4, 'watched-creator-muted');
    expect((await call(service, 'GET', `/alerts?after=${after}`)).body.alerts).toEqual([]);
  });

  it("raises a request alert when a bot prepares a request for a signature, none for the app's own", async () => {
    after = (await call(service, 'GET', '/alerts')).body.latest;
    const bot = privateKeyToAccount(testAccounts()[6]?.privateKey ?? '0x');
    const challenge = await call(service, 'GET', `/keys/challenge?address=${bot.address}`, undefined, false);
    const signature = await bot.signMessage({ message: challenge.body.message });
    const key = await call(
      service,
      'POST',
      '/keys',
      { nonce: challenge.body.nonce, signature, label: 'sniper' },
      false,
    );
    expect(key.status, JSON.stringify(key.body)).toBe(201);
    const prepare = (headers: Record<string, string>) =>
      fetch(
        `${service.url}/intents`,
        jsonInit({
          method: 'POST',
          headers,
          body: JSON.stringify({ kind: 'prepare_buy', wallet: bot.address, token, amount: '0.01' }),
        }),
      );
    expect((await prepare({ 'x-api-key': key.body.key })).status).toBe(201);
    expect((await prepare({ 'x-app-token': APP_TOKEN })).status).toBe(201);
    const feed = await call(service, 'GET', `/alerts?after=${after}`);
    expect(feed.body.alerts).toEqual([
      expect.objectContaining({
        kind: 'request',
        path: '/requests',
        title: 'A buy request waits for your signature',
        body: `A bot (key sniper) prepared a buy for ${bot.address.slice(0, 6)}…${bot.address.slice(-4)}. Review it on the Requests page.`,
      }),
    ]);
    after = feed.body.latest;
  });

  it('fires a price rule once when a real buy crosses it, and not again on the next buy past it', async () => {
    const market = (await drivers.api.get(`/tokens/${token}/trades?limit=1`)).body.market;
    // 2% above the price now, in BNB (the token trades against BNB).
    const figure = (BigInt(market.priceWei) * 102n) / 100n;
    const set = await call(service, 'PUT', `/watchlist/tokens/${token}`, {
      alert: { metric: 'price', direction: 'above', currency: 'bnb', figure: formatEther(figure) },
    });
    expect(set.status).toBe(200);
    expect(set.body.tokens[0].alert).toEqual({
      metric: 'price',
      direction: 'above',
      currency: 'bnb',
      figure: formatEther(figure),
      state: 'armed',
    });
    // A small buy stays under the figure.
    await buy(drivers, 7, token, '0.001');
    await settle(service, drivers);
    expect((await call(service, 'GET', `/alerts?after=${after}`)).body.alerts).toEqual([]);
    await buy(drivers, 7, token, '20');
    await settle(service, drivers);
    const priceNow = BigInt((await drivers.api.get(`/tokens/${token}/trades?limit=1`)).body.market.priceWei);
    expect(priceNow).toBeGreaterThan(figure);
    const feed = await call(service, 'GET', `/alerts?after=${after}`);
    expect(feed.body.alerts).toEqual([
      expect.objectContaining({
        kind: 'crossing',
        path: `/token/${token}`,
        title: expect.stringMatching(/price rose above .* BNB$/),
      }),
    ]);
    after = feed.body.latest;
    await buy(drivers, 8, token, '5');
    await settle(service, drivers);
    expect((await call(service, 'GET', `/alerts?after=${after}`)).body.alerts).toEqual([]);
    expect((await call(service, 'GET', '/watchlist')).body.tokens[0].alert.state).toBe('fired');
  });

  it('keeps the watchlist, the rule where it stands and the switches across a restart on the same data directory', async () => {
    const before = (await call(service, 'GET', '/watchlist')).body;
    await service.close();
    started.splice(started.indexOf(service), 1);
    service.answers.assertNone();
    ({ service, drivers } = await start());
    expect((await call(service, 'GET', '/watchlist')).body).toEqual(before);
    expect(before.tokens[0].alert.state).toBe('fired');
    expect((await call(service, 'GET', '/alerts/kinds')).body.launch).toBe(false);
    const removed = await call(service, 'DELETE', `/watchlist/tokens/${token}`);
    expect(removed.body.tokens).toEqual([]);
  });

  it("raises a transaction alert when the app's own buy is confirmed", async () => {
    after = (await call(service, 'GET', '/alerts')).body.latest;
    const person = testAccounts()[9] as TestAccount;
    /** An operation of the app channel, as the headless page asks main for it. */
    const app = async (operation: string, input: unknown) => {
      const response = await fetch(`${service.origin}/app/${operation}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${APP_TOKEN}` },
        body: JSON.stringify(input),
      });
      const reply = (await response.json()) as { result?: any; error?: unknown };
      if (reply.error) throw new Error(`${operation}: ${JSON.stringify(reply.error)}`);
      return reply.result;
    };
    await app('signer.importKey', { privateKey: person.privateKey, passphrase: 'correct horse battery' });
    const built = await drivers.api.post('/build/buy', { wallet: person.address, token, amount: '0.01' });
    expect(built.status).toBe(200);
    const prepared = await app('tx.prepare', { tx: built.body.tx });
    const sent = await app('tx.send', {
      tx: built.body.tx,
      step: 'main',
      kind: 'buy',
      title: built.body.explain,
      prepared: prepared.id,
    });
    expect((await app('tx.wait', { id: sent.id })).status).toBe('confirmed');
    expect((await call(service, 'GET', `/alerts?after=${after}`)).body.alerts).toEqual([
      expect.objectContaining({
        kind: 'transaction',
        title: 'Transaction confirmed',
        body: built.body.explain,
        path: '/activity',
      }),
    ]);
  });
});
