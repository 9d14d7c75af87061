import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Address,
  decodeFunctionData,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  parseAbi,
  recoverMessageAddress,
  zeroAddress,
} from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestAccount, testAccounts } from '../src-main/chain/devnet/testAccounts';
import { silentLogger } from '../src-main/log/createLogger';
import { passphraseCipher } from '../src-main/signer/localKey/keyCipher';
import { type ServiceOptions, startService } from '../src-main/startService';
import type { MarketDollars } from '../src-shared/appChannelTypes';
import { tradeRouterAbi } from '../src-shared/generated/abis';
import { openApiAnswers } from './support/openApiAnswers';
import { startTradingFixture, type TradingFixture } from './support/tradingFixture';
import { unsignedHashOf } from './support/unsignedHash';

const TOKEN = 'test-app-token-0123456789abcdef';
// A cheap scrypt cost: the keystore's format and checks are the same, only the work factor is lower.
const SETTINGS_FILE = join(mkdtempSync(join(tmpdir(), 'companion-settings-')), 'app-settings.json');
const options: Partial<ServiceOptions> = {
  appToken: TOKEN,
  // The page's confirmations count (what the person ticked): test/signingPolicy.http.test.ts plays the server without.
  allowWarnedSigning: true,
  keyCipher: passphraseCipher({ n: 2 ** 12, r: 8, p: 1 }),
  settingsFile: SETTINGS_FILE,
};
const USER = testAccounts()[7] as TestAccount;
const PASSPHRASE = 'correct horse battery';

let f: TradingFixture;
let origin: string;

beforeAll(async () => {
  f = await startTradingFixture(options);
  origin = f.service.origin;
});
afterAll(async () => {
  await f?.service.dispose();
});

interface Reply {
  status: number;
  result?: unknown;
  error?: { code: string; message: string; fix?: string };
}

async function call(operation: string, input: unknown = {}, headers: Record<string, string> = {}): Promise<Reply> {
  const response = await fetch(`${origin}/app/${operation}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}`, ...headers },
    body: JSON.stringify(input),
  });
  return { status: response.status, ...((await response.json()) as object) };
}

const ok = async <T>(operation: string, input: unknown = {}): Promise<T> => {
  const reply = await call(operation, input);
  if (reply.status !== 200) throw new Error(`${operation}: ${JSON.stringify(reply.error)}`);
  return reply.result as T;
};

/** tx.send of a transaction prepared first, as the review does (main signs only what it prepared). */
async function prepareAndSend(input: { tx: unknown } & Record<string, unknown>): Promise<Reply> {
  const prepared = await call('tx.prepare', { tx: input.tx });
  if (prepared.status !== 200) return prepared;
  return call('tx.send', { ...input, prepared: (prepared.result as { id: string }).id });
}

const okSend = async <T>(input: { tx: unknown } & Record<string, unknown>): Promise<T> => {
  const reply = await prepareAndSend(input);
  if (reply.status !== 200) throw new Error(`tx.send: ${JSON.stringify(reply.error)}`);
  return reply.result as T;
};

describe('the app channel over HTTP (headless web UI)', () => {
  it('answers only with the run token, from the app origin', async () => {
    expect((await call('signer.status', {}, { authorization: '' })).error?.code).toBe('APP_TOKEN_REQUIRED');
    expect((await call('signer.status', {}, { authorization: 'Bearer wrong' })).status).toBe(401);
    const foreign = await call('signer.status', {}, { origin: 'https://evil.example' });
    expect([foreign.status, foreign.error?.code]).toEqual([403, 'ORIGIN_NOT_ALLOWED']);
    expect((await call('signer.status', {}, { origin })).status).toBe(200);
    expect((await call('no.such')).error?.code).toBe('UNKNOWN_OPERATION');
    expect((await call('signer.importKey', { privateKey: 12 })).error?.code).toBe('INVALID_INPUT');
  });

  it('imports a local key sealed by a passphrase, signs messages, and never stores the key in the clear', async () => {
    expect((await call('signer.importKey', { privateKey: USER.privateKey, passphrase: 'short' })).error?.code).toBe(
      'WEAK_PASSPHRASE',
    );
    expect((await call('signer.importKey', { privateKey: '0x1234', passphrase: PASSPHRASE })).error?.code).toBe(
      'INVALID_PRIVATE_KEY',
    );
    const status = await ok<{ active: string; address: string }>('signer.importKey', {
      privateKey: USER.privateKey,
      passphrase: PASSPHRASE,
    });
    expect(status).toMatchObject({ active: 'local', address: USER.address });
    expect((await call('signer.importKey', { privateKey: USER.privateKey, passphrase: PASSPHRASE })).error?.code).toBe(
      'LOCAL_KEY_EXISTS',
    );
    const file = readFileSync(join(f.service.dataDir, 'local-key.json'), 'utf8');
    expect(file).toContain(USER.address);
    expect(file.toLowerCase()).not.toContain(USER.privateKey.slice(2).toLowerCase());

    // One of the service's challenges, for this wallet, is signed as it is.
    const challenge = (await (await fetch(`${f.service.url}/referrals/challenge?address=${USER.address}`)).json()) as {
      message: string;
    };
    const signed = await ok<{ signature: Hex; address: string }>('message.sign', {
      message: challenge.message,
      kind: 'register',
      title: 'Register as a referrer',
    });
    expect(await recoverMessageAddress({ message: challenge.message, signature: signed.signature })).toBe(USER.address);
  });

  it('signs and sends a build, approval steps first, and follows each to its receipt', async () => {
    const build = await fetch(`${f.service.url}/build/sell`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ wallet: USER.address, token: f.bnbToken.token, amount: '0.001', exact: 'out' }),
    });
    // The user holds no tokens: buy some first, natively in BNB (no steps).
    expect(build.status).toBe(422);
    const buy = (await (
      await fetch(`${f.service.url}/build/buy`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ wallet: USER.address, token: f.bnbToken.token, amount: '0.5' }),
      })
    ).json()) as { tx: Record<string, unknown>; requires: unknown[]; explain: string };
    expect(buy.requires).toEqual([]);
    const sent = await okSend<{ id: string; status: string; hash: Hex }>({
      tx: buy.tx,
      step: 'main',
      kind: 'buy',
      title: buy.explain,
    });
    expect(sent.status).toBe('sent');
    const settled = await ok<{ status: string; block: number }>('tx.wait', { id: sent.id });
    expect(settled.status).toBe('confirmed');
    const receipt = await f.client.getTransactionReceipt({ hash: sent.hash });
    expect(receipt.from).toBe(USER.address.toLowerCase());

    // Selling needs the Permit2 approvals: each step is sent and confirmed in order, then the trade is built again.
    const sellBody = JSON.stringify({ wallet: USER.address, token: f.bnbToken.token, amount: '1000' });
    const sellPost = () =>
      fetch(`${f.service.url}/build/sell`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: sellBody,
      });
    const sell = (await (await sellPost()).json()) as {
      requires: { step: string; explain: string; tx: Record<string, unknown> }[];
    };
    expect(sell.requires.length).toBeGreaterThan(0);
    for (const step of sell.requires) {
      const s = await okSend<{ id: string }>({
        tx: step.tx,
        step: step.step,
        kind: 'approve',
        title: step.explain,
      });
      expect((await ok<{ status: string }>('tx.wait', { id: s.id })).status).toBe('confirmed');
    }
    const ready = (await (await sellPost()).json()) as {
      requires: unknown[];
      tx: Record<string, unknown>;
      explain: string;
    };
    expect(ready.requires).toEqual([]);
    const sold = await okSend<{ id: string }>({
      tx: ready.tx,
      step: 'main',
      kind: 'sell',
      title: ready.explain,
    });
    expect((await ok<{ status: string }>('tx.wait', { id: sold.id })).status).toBe('confirmed');

    const activity = await ok<{ kind: string; status: string }[]>('activity.list', {});
    expect(activity.map((a) => a.kind).slice(0, 2)).toEqual(['sell', 'approve']);
    expect(activity.filter((a) => a.status === 'confirmed')).toHaveLength(2 + sell.requires.length);
  });

  it('refuses a transaction to a contract that is not ours, and one for another chain, before signing', async () => {
    const wbnbDeposit = { chainId: 31337, to: f.contracts.wbnb, data: '0xd0e30db0', value: '1' };
    const refused = await call('tx.send', { tx: wbnbDeposit, step: 'main', kind: 'transfer', title: 'wrap' });
    expect(refused.error?.code).toBe('UNKNOWN_CONTRACT');
    // Permit2 serves every app on the chain: an approval there to anyone but our router is refused.
    const permit2ToStranger = {
      chainId: 31337,
      to: f.contracts.permit2,
      data: encodeFunctionData({
        abi: parseAbi(['function approve(address token, address spender, uint160 amount, uint48 expiration)']),
        args: [f.bnbToken.token, USER.address, 2n ** 160n - 1n, 2 ** 48 - 1],
      }),
      value: '0',
    };
    const stranger = await call('tx.send', {
      tx: permit2ToStranger,
      step: 'approve-router',
      kind: 'approve',
      title: 'x',
    });
    expect(stranger.error?.code).toBe('UNKNOWN_CONTRACT');
    const otherChain = { ...wbnbDeposit, chainId: 56, to: f.contracts.router };
    expect((await call('tx.send', { tx: otherChain, step: 'main', kind: 'buy', title: 'x' })).error?.code).toBe(
      'WRONG_CHAIN',
    );
  });
});

describe('what the UI shows beside amounts', () => {
  it("gives BNB's dollar price from the chain (the one the token's dollar cap uses), the dollar's, and a wallet's BNB", async () => {
    const { currencies } = await ok<MarketDollars>('market.dollars');
    const bnb = currencies.find((c) => c.address === f.contracts.wbnb);
    const usdt = currencies.find((c) => c.symbol === 'USDT');
    expect(usdt?.usdPerUnit).toBe(1);
    // The token page's cap in dollars over its cap in BNB, rounded to cents by the service: the same dollar price.
    const { market } = (await (await fetch(`${f.service.url}/tokens/${f.bnbToken.token}/trades`)).json()) as {
      market: { marketCap: { amount: string }; marketCapUsd: number };
    };
    const implied = market.marketCapUsd / Number(market.marketCap.amount);
    expect(bnb?.usdPerUnit).toBeGreaterThan(0);
    expect(Math.abs((bnb?.usdPerUnit ?? 0) - implied)).toBeLessThan(0.01);

    const balance = await ok<{ address: string; bnbWei: string }>('wallet.balance', { address: USER.address });
    expect(BigInt(balance.bnbWei)).toBe(await f.client.getBalance({ address: USER.address }));
    expect((await call('wallet.balance', { address: 'nope' })).error?.code).toBe('INVALID_INPUT');
  });
});

describe("main's last guard, whatever the page sends", () => {
  const buyParams = (pair: string, amount: bigint) => ({
    token: f.bnbToken.token,
    pair: pair as Address,
    fee: 10_000,
    amount,
    limit: 0n,
    referrer: zeroAddress,
    deadline: BigInt(Math.floor(Date.now() / 1000) + 600),
  });
  const routerCall = (
    functionName: 'buyExactIn' | 'sellExactIn',
    params: ReturnType<typeof buyParams>,
    value: bigint,
  ) => ({
    chainId: 31337,
    to: f.contracts.router,
    data: encodeFunctionData({ abi: tradeRouterAbi, functionName, args: [params] }),
    value: value.toString(),
  });
  const send = (tx: unknown, step = 'main') => call('tx.send', { tx, step, kind: 'x', title: 'x' });

  it('sends BNB only with a call that pays it, and exactly what it pays', async () => {
    const sellWithValue = routerCall('sellExactIn', buyParams(f.contracts.wbnb as string, 10n ** 18n), 1n);
    expect((await send(sellWithValue)).error?.code).toBe('UNKNOWN_CONTRACT');
    const nativeBuy = buyParams(f.contracts.wbnb as string, 10n ** 16n);
    const overpaid = await send(routerCall('buyExactIn', nativeBuy, 10n ** 18n));
    expect(overpaid.error?.code).toBe('UNKNOWN_CONTRACT');
    expect(overpaid.error?.message).toContain('sending 1 BNB where the call pays 0.01 BNB');
  });

  it("refuses functions of our contracts the service never builds (the router's callback, Permit2's others)", async () => {
    const callback = {
      chainId: 31337,
      to: f.contracts.router,
      data: encodeFunctionData({
        abi: tradeRouterAbi,
        functionName: 'pancakeV3SwapCallback',
        args: [1n, 1n, '0x'],
      }),
      value: '0',
    };
    expect((await send(callback)).error?.message).toContain('pancakeV3SwapCallback');
    const lockdown = {
      chainId: 31337,
      to: f.contracts.permit2,
      data: encodeFunctionData({
        abi: parseAbi(['function lockdown((address token, address spender)[] approvals)']),
        args: [[{ token: f.bnbToken.token, spender: f.contracts.router as Address }]],
      }),
      value: '0',
    };
    expect((await send(lockdown)).error?.code).toBe('UNKNOWN_CONTRACT');
  });

  it('signs an approval only as a build of this service made it for this wallet', async () => {
    // An approval to our own router, but of an amount no build asked for.
    const invented = {
      chainId: 31337,
      to: f.bnbToken.token,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [f.contracts.router as Address, 123n] }),
      value: '0',
    };
    const refused = await send(invented, 'approve-router');
    expect(refused.error?.code).toBe('UNKNOWN_CONTRACT');
    expect(refused.error?.message).toContain('no build of this service made');
    // A build's own approval step, with its amount edited on the way: refused; as built: prepared.
    const built = (await (
      await fetch(`${f.service.url}/build/buy`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ wallet: USER.address, token: f.usdtToken.token, amount: '1' }),
      })
    ).json()) as { requires: { step: string; tx: { to: Address; data: Hex } }[] };
    const step = built.requires[0];
    if (!step) throw new Error('the USDT buy needs an approval step');
    const approval = decodeFunctionData({ abi: erc20Abi, data: step.tx.data });
    if (approval.functionName !== 'approve') throw new Error(`the step calls ${approval.functionName}, not approve`);
    const [spender] = approval.args;
    const edited = {
      ...step.tx,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, 10n ** 30n] }),
    };
    expect((await send(edited, step.step)).error?.code).toBe('UNKNOWN_CONTRACT');
    expect((await call('tx.prepare', { tx: step.tx })).status).toBe(200);
  });

  it('signs exactly the transaction it prepared for review, once, and its hash is the one shown', async () => {
    const buy = (await (
      await fetch(`${f.service.url}/build/buy`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ wallet: USER.address, token: f.bnbToken.token, amount: '0.01' }),
      })
    ).json()) as { tx: { to: Address; data: Hex; value: string; chainId: number; gas: string } };
    const prepared = await ok<{ id: string; hash: Hex; tx: { nonce: number; maxFeePerGas: string } }>('tx.prepare', {
      tx: buy.tx,
    });
    // Another call than the one prepared (here a second later deadline, the last bit of the data) is refused under its id.
    const last = Number.parseInt(buy.tx.data.slice(-2), 16) ^ 1;
    const other = { ...buy.tx, data: `${buy.tx.data.slice(0, -2)}${last.toString(16).padStart(2, '0')}` };
    const mismatch = await call('tx.send', { tx: other, prepared: prepared.id, step: 'main', kind: 'buy', title: 'x' });
    expect(mismatch.error?.code).toBe('NOT_PREPARED');
    const again = await ok<{ id: string; hash: Hex }>('tx.prepare', { tx: buy.tx });
    const sent = await ok<{ id: string; hash: Hex }>('tx.send', {
      tx: buy.tx,
      prepared: again.id,
      step: 'main',
      kind: 'buy',
      title: 'x',
    });
    expect((await ok<{ status: string }>('tx.wait', { id: sent.id })).status).toBe('confirmed');
    expect(await unsignedHashOf(f.client as never, sent.hash)).toBe(again.hash);
    // Used once: the same id signs nothing twice.
    const reused = await call('tx.send', { tx: buy.tx, prepared: again.id, step: 'main', kind: 'buy', title: 'x' });
    expect(reused.error?.code).toBe('NOT_PREPARED');
  });

  it("signs only the service's own challenges, unless the person confirmed another message shown in full", async () => {
    const unknown = await call('message.sign', { message: 'Permit: spend everything', kind: 'x', title: 'x' });
    expect(unknown.error?.code).toBe('UNKNOWN_MESSAGE');
    const confirmed = await ok<{ signature: Hex }>('message.sign', {
      message: 'Permit: spend everything',
      kind: 'x',
      title: 'x',
      confirmedUnknown: true,
    });
    expect(await recoverMessageAddress({ message: 'Permit: spend everything', signature: confirmed.signature })).toBe(
      USER.address,
    );
    // A real challenge, but for another wallet: refused whatever was confirmed.
    const stranger = testAccounts()[9] as TestAccount;
    const theirs = (await (await fetch(`${f.service.url}/referrals/challenge?address=${stranger.address}`)).json()) as {
      message: string;
    };
    const mismatch = await call('message.sign', {
      message: theirs.message,
      kind: 'x',
      title: 'x',
      confirmedUnknown: true,
    });
    expect(mismatch.error?.code).toBe('CHALLENGE_MISMATCH');
    // One changed character in an otherwise valid challenge makes it no challenge at all.
    const mine = (await (await fetch(`${f.service.url}/referrals/challenge?address=${USER.address}`)).json()) as {
      message: string;
    };
    const edited = mine.message.replace('moves nothing.', 'moves nothing!');
    expect((await call('message.sign', { message: edited, kind: 'x', title: 'x' })).error?.code).toBe(
      'UNKNOWN_MESSAGE',
    );
  });
});

describe('settings for the next start', () => {
  it('saves what Settings chose, after checking it, and reads it back', async () => {
    const choice = { network: 'testnet', rpcUrl: null, dataDir: null, rateLimits: false, ledgerTemplate: 'legacy' };
    expect((await call('settings.save', choice)).error?.code).toBe('INVALID_INPUT');
    expect(existsSync(SETTINGS_FILE)).toBe(false);
    expect((await call('settings.save', { ...choice, rpcUrl: 'ftp://x' })).error?.code).toBe('INVALID_INPUT');
    const good = { ...choice, rpcUrl: 'https://bsc-testnet.example/rpc' };
    expect(await ok('settings.save', good)).toEqual({ saved: good, restartNeeded: true });
    expect(JSON.parse(readFileSync(SETTINGS_FILE, 'utf8'))).toEqual(good);
    expect(await ok('settings.get')).toEqual({ saved: good });
  });

  it('saves the public base of shared links: an https site, never this machine, and none for the app scheme', async () => {
    const choice = { network: 'devnet', rpcUrl: null, dataDir: null, rateLimits: true, ledgerTemplate: 'live' };
    for (const bad of ['http://127.0.0.1:8787', 'https://localhost/app', 'http://pad.example', 'pad.example']) {
      expect((await call('settings.save', { ...choice, publicLinkBase: bad })).error?.code, bad).toBe('INVALID_INPUT');
    }
    const good = { ...choice, publicLinkBase: 'https://pad.example/app' };
    expect(await ok('settings.save', good)).toEqual({ saved: good, restartNeeded: true });
    expect(JSON.parse(readFileSync(SETTINGS_FILE, 'utf8'))).toEqual(good);
    expect(await ok('settings.save', { ...choice, publicLinkBase: null })).toMatchObject({ restartNeeded: true });
  });
});

describe('after a restart', () => {
  it('keeps the activity list, and the local key stays locked until its passphrase is given', async () => {
    const before = await ok<unknown[]>('activity.list', {});
    await f.service.close();
    const answers = openApiAnswers();
    const again = await startService({
      port: 0,
      dataDir: f.service.dataDir,
      network: 'devnet',
      seed: false,
      logger: silentLogger(),
      checkAnswers: answers.check,
      ...options,
    });
    origin = again.origin;
    try {
      await answers.load(`${again.url}/openapi.json`);
      expect(await ok('activity.list', {})).toEqual(before);
      const status = await ok<{ active: unknown; localKey: { unlocked: boolean } }>('signer.status');
      expect(status).toMatchObject({ active: null, localKey: { unlocked: false } });
      const locked = await call('message.sign', { message: 'x', kind: 'register', title: 'x' });
      expect(locked.error?.code).toBe('SIGNER_LOCKED');
      expect((await call('signer.unlock', { passphrase: 'not it at all' })).error?.code).toBe('WRONG_PASSPHRASE');
      expect(await ok('signer.unlock', { passphrase: PASSPHRASE })).toMatchObject({ address: USER.address });
    } finally {
      await again.close();
    }
    answers.assertNone();
  });
});
