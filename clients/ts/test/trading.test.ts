import { type Address, createWalletClient, erc20Abi, http, parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAccounts } from '../../../src-main/chain/devnet/testAccounts';
import { devnetChain } from '../../../src-main/chain/networks';
import { startTradingFixture, type TradingFixture } from '../../../test/support/tradingFixture';
import { CompanionError } from '../src/companionError';
import { type Companion, createCompanion } from '../src/createCompanion';
import { RETRY_BY_CODE } from '../src/errorRetry';
import type { TradeEvent } from '../src/events/streamEvents';
import { sendBuild } from '../src/sendBuild';

// The client against the real service on the embedded devnet, over a real port, as a bot would use it.

let fixture: TradingFixture;
let companion: Companion;
let token: Address;
const APP_TOKEN = 'client-test-app-token-000000000000';
/** The trader: a test account nobody else here uses, so its balances move only by what this file does. */
const TRADER = 7;
const account = (index: number) => privateKeyToAccount(testAccounts()[index]?.privateKey ?? '0x');
const walletOf = (index: number) =>
  createWalletClient({ account: account(index), chain: devnetChain, transport: http(`${fixture.service.origin}/rpc`) });
const tokenBalance = (wallet: Address) =>
  fixture.client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [wallet] });

beforeAll(async () => {
  fixture = await startTradingFixture({ rateLimits: false, appToken: APP_TOKEN });
  companion = createCompanion({ baseUrl: fixture.service.url });
  token = fixture.bnbToken.token;
});
afterAll(async () => {
  await fixture?.service.dispose();
});

/** A live API key of the wallet, made the way a bot's owner makes one: sign the challenge, post it. */
async function keyOf(index: number, label: string): Promise<string> {
  const { address } = account(index);
  const { data: challenge } = await companion.api.GET('/keys/challenge', { params: { query: { address } } });
  if (!challenge) throw new Error('no key challenge');
  const signature = await account(index).signMessage({ message: challenge.message });
  const { data: created } = await companion.api.POST('/keys', { body: { nonce: challenge.nonce, signature, label } });
  if (!created) throw new Error('no key');
  return created.key;
}

describe('reads', () => {
  it('reads the settings', async () => {
    const settings = await companion.settings();
    expect(settings).toMatchObject({ apiVersion: 1, chainId: 31337, contracts: fixture.contracts });
  });

  it('quotes both sides and both exacts', async () => {
    const buy = await companion.quote({ token, side: 'buy', amount: '0.1' });
    expect(buy).toMatchObject({ side: 'buy', exact: 'in', pay: { amount: '0.1', symbol: 'BNB' } });
    expect(BigInt(buy.receive.wei)).toBeGreaterThan(0n);
    const out = await companion.quote({ token, side: 'buy', amount: '1000', exact: 'out', slippageBps: 100 });
    expect(out).toMatchObject({
      exact: 'out',
      slippageBps: 100,
      receive: { amount: '1000' },
      limit: { kind: 'maxPay' },
    });
  });

  it("classifies every code of GET /errors as the service does (the spec's retry column)", async () => {
    const { data } = await companion.api.GET('/errors');
    const served = Object.fromEntries((data?.errors ?? []).map((e) => [e.code, e.retry]));
    expect(served).toEqual(RETRY_BY_CODE);
  });
});

describe('trading with sendBuild', () => {
  it('buys with BNB: no steps, one transaction, the tokens arrive', async () => {
    const wallet = account(TRADER).address;
    const before = await tokenBalance(wallet);
    const build = await companion.buildBuy({ wallet, token, amount: '0.5' });
    expect(build.requires).toEqual([]);
    expect(build.simulation).toMatchObject({ ran: true, ok: true });
    const sent = await sendBuild(build, { walletClient: walletOf(TRADER), publicClient: fixture.client });
    expect(sent.steps).toEqual([]);
    expect(sent.receipt).toMatchObject({ status: 'success', transactionHash: sent.hash });
    expect((await tokenBalance(wallet)) - before).toBeGreaterThanOrEqual(BigInt(build.limit.wei));
  });

  it('sells for the first time: sends the one approval step, builds again, then sells', async () => {
    const wallet = account(TRADER).address;
    const held = await tokenBalance(wallet);
    expect(held).toBeGreaterThan(0n);
    const body = { wallet, token, amount: '1000' };
    const build = await companion.buildSell(body);
    expect(build.requires.map((step) => step.step)).toEqual(['approve-router']);
    expect(build.simulation.ran).toBe(false);
    expect(build.tx.gas).toBeUndefined();
    let rebuilt = 0;
    const sent = await sendBuild(build, {
      walletClient: walletOf(TRADER),
      publicClient: fixture.client,
      rebuild: () => {
        rebuilt++;
        return companion.buildSell(body);
      },
    });
    expect(rebuilt).toBe(1);
    expect(sent.steps.map((step) => step.step)).toEqual(['approve-router']);
    // The trade sent is the second build's: simulated, with its gas, and no step left.
    expect(sent.build.requires).toEqual([]);
    expect(sent.build.simulation).toMatchObject({ ran: true, ok: true });
    expect(sent.build.tx.gas).toBeDefined();
    expect(sent.receipt.status).toBe('success');
    expect(held - (await tokenBalance(wallet))).toBe(parseEther('1000'));
    // Approved once: the next sell needs no step.
    expect((await companion.buildSell(body)).requires).toEqual([]);
  });

  it('refuses a build for another wallet before sending anything', async () => {
    const build = await companion.buildBuy({ wallet: account(TRADER).address, token, amount: '0.01' });
    const refused = await sendBuild(build, { walletClient: walletOf(8), publicClient: fixture.client }).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(CompanionError);
    expect(refused).toMatchObject({ code: 'WRONG_WALLET', retry: false });
  });

  it('launches a token and sends the launch', async () => {
    const wallet = account(9).address;
    const upload = await fetch(`${fixture.service.url}/media/image`, {
      method: 'POST',
      headers: { 'content-type': 'image/png' },
      body: Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
        'base64',
      ),
    });
    const { uri: image } = (await upload.json()) as { uri: string };
    const build = await companion.buildLaunch({
      wallet,
      name: 'Client Cat',
      symbol: 'CCAT',
      marketCapPair: '25',
      image,
    });
    expect(build).toMatchObject({ wallet, symbol: 'CCAT', requires: [], simulation: { ran: true, ok: true } });
    const sent = await sendBuild(build, { walletClient: walletOf(9), publicClient: fixture.client });
    expect(sent.receipt.status).toBe('success');
    const { data: launched } = await companion.api.GET('/tokens/{address}', {
      params: { path: { address: build.token } },
    });
    expect(launched).toMatchObject({ address: build.token, symbol: 'CCAT', creator: wallet });
  });
});

describe('events', () => {
  it('streams a trade as it is indexed, and a resume after an id sends what came since, once', async () => {
    const events = companion.events({ token });
    // A fresh connection starts with the indexed block.
    const { value: start } = await events.next();
    if (start?.event !== 'block') throw new Error(`the stream started with ${JSON.stringify(start)}`);
    const wallet = account(TRADER).address;
    const build = await companion.buildBuy({ wallet, token, amount: '0.01' });
    const sent = await sendBuild(build, { walletClient: walletOf(TRADER), publicClient: fixture.client });
    let trade: TradeEvent | undefined;
    for await (const event of events) {
      if (event.event === 'trade') {
        trade = event;
        break;
      }
    }
    expect(trade?.data).toMatchObject({ tx: sent.hash, side: 'buy', firstBuy: false });
    expect(trade?.data.token.toLowerCase()).toBe(token.toLowerCase());
    expect(trade?.data.trader.toLowerCase()).toBe(wallet.toLowerCase());
    expect(trade?.id?.split('-')[0]).toBe(String(sent.receipt.blockNumber));
    // Resumed after the block it started at: that trade first, and only trades, as asked.
    const resumed = companion.events({ token, types: ['trade'], after: start.id });
    const { value: again } = await resumed.next();
    await resumed.return();
    expect(again).toEqual(trade);
  });

  it('replays the launches from the start, typed as launches', async () => {
    const launches = companion.events({ types: ['launch'], after: '0' });
    const tokens: string[] = [];
    for await (const launch of launches) {
      tokens.push(launch.data.token.toLowerCase());
      if (tokens.length === 2) break;
    }
    expect(tokens).toEqual([fixture.bnbToken.token.toLowerCase(), fixture.usdtToken.token.toLowerCase()]);
  });

  it('refuses a bad resume id before the stream starts: INVALID_CURSOR', async () => {
    await expect(companion.events({ after: 'yesterday' }).next()).rejects.toMatchObject({
      status: 400,
      code: 'INVALID_CURSOR',
      retry: false,
    });
  });
});

describe('errors as values', () => {
  it('a bad amount: INVALID_AMOUNT with its status, field and fix, not retryable', async () => {
    const error = await companion
      .buildBuy({ wallet: account(TRADER).address, token, amount: 'lots' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CompanionError);
    const e = error as CompanionError;
    expect({ status: e.status, code: e.code, retry: e.retry }).toEqual({
      status: 400,
      code: 'INVALID_AMOUNT',
      retry: false,
    });
    expect(e.fix).toEqual(expect.any(String));
  });

  it('an unknown token: UNKNOWN_TOKEN, retryable after the Retry-After the service sends', async () => {
    const error = await companion
      .quote({ token: '0x00000000000000000000000000000000c0ffee01', side: 'buy', amount: '1' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, code: 'UNKNOWN_TOKEN', retry: { afterMs: 5_000 } });
  });

  it('no service: UNREACHABLE, through the helpers and the raw api alike', async () => {
    const gone = createCompanion({ baseUrl: 'http://127.0.0.1:1/api/v1' });
    await expect(gone.settings()).rejects.toMatchObject({ code: 'UNREACHABLE', status: null });
    await expect(gone.api.GET('/settings')).rejects.toBeInstanceOf(CompanionError);
  });
});

describe('prepared requests', () => {
  const USER = 6;
  const asApp = { 'x-app-token': APP_TOKEN };

  it("a bot's request, signed by the person in the app: the bot waits for the outcome", async () => {
    const bot = createCompanion({ baseUrl: fixture.service.url, apiKey: await keyOf(3, 'client test bot') });
    const intent = await bot.createIntent({
      kind: 'prepare_buy',
      wallet: account(USER).address,
      token,
      amount: '0.05',
    });
    expect(intent).toMatchObject({ state: 'pending', source: { kind: 'key', key: { label: 'client test bot' } } });
    const outcome = bot.waitForIntent(intent.id, { intervalMs: 100 });
    // The person, in the app: builds it, signs and sends it, and the app reports the hash.
    const app = createCompanion({ baseUrl: fixture.service.url, headers: asApp });
    const { build } = await app.buildIntent(intent.id);
    const sent = await sendBuild(build, { walletClient: walletOf(USER), publicClient: fixture.client });
    await app.reportSent(intent.id, sent.hash);
    expect(await outcome).toMatchObject({ state: 'confirmed', tx: { hash: sent.hash } });
  });

  it('a rejected request ends failed with the reason, which the bot reads', async () => {
    const bot = createCompanion({ baseUrl: fixture.service.url, apiKey: await keyOf(3, 'client test bot 2') });
    const intent = await bot.createIntent({ kind: 'prepare_sell', wallet: account(USER).address, token, amount: '1' });
    const outcome = bot.waitForIntent(intent.id, { intervalMs: 100 });
    await fetch(`${fixture.service.url}/intents/${intent.id}/reject`, {
      method: 'POST',
      headers: { ...asApp, 'content-type': 'application/json' },
      body: JSON.stringify({ reason: 'not today' }),
    });
    expect(await outcome).toMatchObject({ state: 'failed', reason: expect.stringContaining('not today') });
  });

  it("the wallet's own bot builds, sends and reports its request itself", async () => {
    const own = createCompanion({ baseUrl: fixture.service.url, apiKey: await keyOf(USER, 'own bot') });
    const intent = await own.createIntent({
      kind: 'prepare_buy',
      wallet: account(USER).address,
      token,
      amount: '0.02',
    });
    const built = await own.buildIntent(intent.id);
    expect(built.state).toBe('built');
    const sent = await sendBuild(built.build, { walletClient: walletOf(USER), publicClient: fixture.client });
    const reported = await own.reportSent(intent.id, sent.hash);
    expect(reported).toMatchObject({ state: 'confirmed', tx: { hash: sent.hash } });
    expect(await own.waitForIntent(intent.id, { until: 'sent' })).toMatchObject({ state: 'confirmed' });
  });

  it('without a key: API_KEY_REQUIRED, not retryable', async () => {
    const error = await companion
      .createIntent({ kind: 'prepare_buy', wallet: account(USER).address, token, amount: '0.05' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 401, code: 'API_KEY_REQUIRED', retry: false });
  });
});
