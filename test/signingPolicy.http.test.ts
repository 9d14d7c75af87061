import {
  type Address,
  decodeFunctionData,
  encodeFunctionData,
  type Hex,
  parseEther,
  recoverMessageAddress,
} from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestAccount, testAccounts } from '../src-main/chain/devnet/testAccounts';
import { passphraseCipher } from '../src-main/signer/localKey/keyCipher';
import { tradeRouterAbi } from '../src-shared/generated/abis';
import { pngBytes } from './support/pngImage';
import { startTradingFixture } from './support/tradingFixture';

/*
 * Main's own judgement of what it signs, played from the attacker's side: script in the page (or anything holding the
 * app token) asks main to sign transactions that hurt the person, and ticks every box a page could tick. Headless and
 * started without --allow-warned-signing, main must sign none of them; with the flag, only what the person confirmed,
 * exactly. What the attacker ends with is measured on the chain: the person's nonce and balance.
 */

const TOKEN = 'signing-policy-app-token-0123456789';
const PERSON = testAccounts()[11] as TestAccount;
const ATTACKER = testAccounts()[12] as TestAccount;
const PASSPHRASE = 'correct horse battery';

interface Reply {
  status: number;
  result?: unknown;
  error?: { code: string; message: string; fix?: string };
}

interface Prepared {
  id: string;
  warnings: { id: string; message: string }[];
  confirmation: string;
}

/** A service with the app channel open to TOKEN, and the person's key imported. */
async function startWithPerson(allowWarnedSigning: boolean) {
  const f = await startTradingFixture({
    appToken: TOKEN,
    keyCipher: passphraseCipher({ n: 2 ** 12, r: 8, p: 1 }),
    ...(allowWarnedSigning ? { allowWarnedSigning: true } : {}),
  });
  const call = async (operation: string, input: unknown = {}): Promise<Reply> => {
    const response = await fetch(`${f.service.origin}/app/${operation}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify(input),
    });
    return { status: response.status, ...((await response.json()) as object) };
  };
  const imported = await call('signer.importKey', { privateKey: PERSON.privateKey, passphrase: PASSPHRASE });
  if (imported.status !== 200) throw new Error(`import: ${JSON.stringify(imported.error)}`);
  const api = async <T>(path: string, body: unknown): Promise<T> => {
    const answer = await fetch(`${f.service.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await answer.json()) as T;
    if (answer.status !== 200) throw new Error(`${path}: ${JSON.stringify(json)}`);
    return json;
  };
  const prepare = async (tx: unknown): Promise<Prepared> => {
    const reply = await call('tx.prepare', { tx });
    if (reply.status !== 200) throw new Error(`tx.prepare: ${JSON.stringify(reply.error)}`);
    return reply.result as Prepared;
  };
  /** The attacker's best move with the page: prepare, then send ticking every warning main raised. */
  const sendTickingAll = async (tx: unknown) => {
    const prepared = await prepare(tx);
    const sent = await call('tx.send', {
      tx,
      prepared: prepared.id,
      confirmedWarnings: prepared.warnings.map((warning) => warning.id),
      step: 'main',
      kind: 'buy',
      title: 'anything',
    });
    return { prepared, sent };
  };
  const nonce = () => f.client.getTransactionCount({ address: PERSON.address });
  const balance = () => f.client.getBalance({ address: PERSON.address });
  return { f, call, api, prepare, sendTickingAll, nonce, balance };
}

type Setup = Awaited<ReturnType<typeof startWithPerson>>;

interface BuiltTrade {
  tx: { chainId: number; to: Address; data: Hex; value: string };
}

/** A native buy of the fixture's BNB token, built by the service for the person. */
const buildBuy = (s: Setup, body: Record<string, unknown> = {}) =>
  s.api<BuiltTrade>('/build/buy', { wallet: PERSON.address, token: s.f.bnbToken.token, amount: '0.1', ...body });

/** The same router call with its trade parameters changed as `edit` says (value kept unless given). */
function editTrade(
  built: BuiltTrade,
  edit: (params: Record<string, unknown>) => Record<string, unknown>,
  value?: bigint,
) {
  const { functionName, args } = decodeFunctionData({ abi: tradeRouterAbi, data: built.tx.data });
  const [params] = args as unknown as [Record<string, unknown>];
  return {
    ...built.tx,
    data: encodeFunctionData({ abi: tradeRouterAbi, functionName, args: [edit(params)] } as never),
    value: (value ?? BigInt(built.tx.value)).toString(),
  };
}

/** A launch built by the service for the person, its first buy and royalty going to the attacker. */
async function launchForAttacker(s: Setup) {
  const upload = await fetch(`${s.f.service.url}/media/image`, {
    method: 'POST',
    headers: { 'content-type': 'image/png' },
    body: new Uint8Array(pngBytes(64)),
  });
  const { uri } = (await upload.json()) as { uri: string };
  return s.api<BuiltTrade>('/build/launch', {
    wallet: PERSON.address,
    name: 'Not Yours',
    symbol: 'NOPE',
    marketCapPair: '25',
    image: uri,
    firstBuy: '1',
    firstBuyTo: [{ wallet: ATTACKER.address, pct: 100 }],
    royaltyTo: ATTACKER.address,
  });
}

describe('headless, started without --allow-warned-signing: nothing main warns about is signed', () => {
  let s: Setup;
  beforeAll(async () => {
    s = await startWithPerson(false);
  });
  afterAll(async () => {
    await s?.f.service.dispose();
  });

  it('signs a clean buy, prepared, with no warning at all', async () => {
    const built = await buildBuy(s);
    const { prepared, sent } = await s.sendTickingAll(built.tx);
    expect(prepared).toMatchObject({ warnings: [], confirmation: 'refused' });
    expect(sent.status).toBe(200);
    const settled = await s.call('tx.wait', { id: (sent.result as { id: string }).id });
    expect(settled.result).toMatchObject({ status: 'confirmed' });
  });

  it('signs nothing that was not prepared for review, even a clean buy', async () => {
    const before = await s.nonce();
    const built = await buildBuy(s);
    const sent = await s.call('tx.send', { tx: built.tx, step: 'main', kind: 'buy', title: 'unprepared' });
    expect(sent.error).toMatchObject({ code: 'NOT_PREPARED', fix: expect.stringContaining('tx.prepare') });
    expect(await s.nonce()).toBe(before);
  });

  it('refuses a launch whose whole first buy and royalty go to another wallet, all boxes ticked', async () => {
    const before = { nonce: await s.nonce(), balance: await s.balance() };
    const built = await launchForAttacker(s);
    const { prepared, sent } = await s.sendTickingAll(built.tx);
    expect(prepared.warnings.map((w) => w.id).sort()).toEqual(['first-buy-to-0', 'royalty-to-other']);
    expect(prepared.warnings[0]?.message).toContain(ATTACKER.address);
    expect(sent.error).toMatchObject({
      code: 'WARNINGS_NOT_CONFIRMED',
      fix: expect.stringContaining('--allow-warned-signing'),
    });
    expect(await s.nonce()).toBe(before.nonce);
    expect(await s.balance()).toBe(before.balance);
  });

  it('refuses a buy edited to a limit of 0 and the attacker as referrer', async () => {
    const before = await s.nonce();
    const tx = editTrade(await buildBuy(s), (p) => ({ ...p, limit: 0n, referrer: ATTACKER.address }));
    const { prepared, sent } = await s.sendTickingAll(tx);
    expect(prepared.warnings.map((w) => w.id).sort()).toEqual(['limit-zero', 'referrer-not-chosen']);
    expect(sent.error?.code).toBe('WARNINGS_NOT_CONFIRMED');
    expect(await s.nonce()).toBe(before);
  });

  it('refuses a buy valid until the year 36812, and a 1-wei exact-out buy allowed to pay 50 BNB', async () => {
    const before = { nonce: await s.nonce(), balance: await s.balance() };
    const far = editTrade(await buildBuy(s), (p) => ({ ...p, deadline: 1_099_511_627_775n }));
    const farSent = await s.sendTickingAll(far);
    expect(farSent.prepared.warnings.map((w) => w.id)).toEqual(['deadline-too-far']);
    expect(farSent.sent.error?.code).toBe('WARNINGS_NOT_CONFIRMED');

    const exactOut = await buildBuy(s, { exact: 'out', amount: '1' });
    const fifty = parseEther('50');
    const drain = editTrade(exactOut, (p) => ({ ...p, amount: 1n, limit: fifty }), fifty);
    const drainSent = await s.sendTickingAll(drain);
    const warning = drainSent.prepared.warnings.find((w) => w.id === 'limit-far-from-quote');
    expect(warning?.message).toContain('50 BNB');
    expect(drainSent.sent.error?.code).toBe('WARNINGS_NOT_CONFIRMED');
    expect(await s.nonce()).toBe(before.nonce);
    expect(await s.balance()).toBe(before.balance);
  });

  it('refuses to sign a message that is not a challenge, whatever the page says was confirmed', async () => {
    const refused = await s.call('message.sign', {
      message: 'Permit: spend everything',
      kind: 'x',
      title: 'x',
      confirmedUnknown: true,
    });
    expect(refused.error).toMatchObject({
      code: 'WARNINGS_NOT_CONFIRMED',
      fix: expect.stringContaining('--allow-warned-signing'),
    });
  });

  it('refuses at 1000 gwei before anything is signed, naming the RPC', async () => {
    const before = await s.nonce();
    // The node now asks 1000 gwei a gas (here because its base fee really is that, as a lying RPC would say).
    const devnet = s.f.service.chain.devnet;
    if (!devnet) throw new Error('the fixture runs on the devnet');
    await devnet.provider.request({
      method: 'hardhat_setNextBlockBaseFeePerGas',
      params: [`0x${(1000n * 10n ** 9n).toString(16)}`],
    } as never);
    await devnet.provider.request({ method: 'evm_mine', params: [] } as never);
    const built = await buildBuy(s);
    const refused = await s.call('tx.prepare', { tx: built.tx });
    expect(refused.error).toMatchObject({ code: 'FEE_TOO_HIGH', fix: expect.stringContaining('RPC') });
    expect(refused.error?.message).toContain('the embedded devnet');
    expect(refused.error?.message).toMatch(/1,?\d{3}(\.\d+)? gwei/);
    expect(await s.nonce()).toBe(before);
  });
});

describe('headless with --allow-warned-signing: signed only with exactly the warnings main raised confirmed', () => {
  let s: Setup;
  beforeAll(async () => {
    s = await startWithPerson(true);
  });
  afterAll(async () => {
    await s?.f.service.dispose();
  });

  it('refuses a confirmation that leaves out a warning or names others, and signs once each is confirmed', async () => {
    const tx = editTrade(await buildBuy(s), (p) => ({ ...p, referrer: ATTACKER.address }));
    const prepared = await s.prepare(tx);
    expect(prepared).toMatchObject({ confirmation: 'page' });
    expect(prepared.warnings.map((w) => w.id)).toEqual(['referrer-not-chosen']);
    const before = await s.nonce();
    for (const confirmedWarnings of [[], ['limit-zero'], ['referrer-not-chosen', 'limit-zero']]) {
      const again = await s.prepare(tx);
      const sent = await s.call('tx.send', {
        tx,
        prepared: again.id,
        confirmedWarnings,
        step: 'main',
        kind: 'buy',
        title: 'x',
      });
      expect(sent.error?.code, JSON.stringify(confirmedWarnings)).toBe('WARNINGS_NOT_CONFIRMED');
    }
    expect(await s.nonce()).toBe(before);
    const sent = await s.call('tx.send', {
      tx,
      prepared: prepared.id,
      confirmedWarnings: ['referrer-not-chosen'],
      step: 'main',
      kind: 'buy',
      title: 'x',
    });
    expect(sent.status).toBe(200);
    expect((await s.call('tx.wait', { id: (sent.result as { id: string }).id })).result).toMatchObject({
      status: 'confirmed',
    });
  });

  it('warns, with its cost in BNB and dollars, when the fee is over 3 times what recent blocks paid', async () => {
    const devnet = s.f.service.chain.devnet;
    if (!devnet) throw new Error('the fixture runs on the devnet');
    // Recent blocks paid about 1 gwei; the next asks about 7, under the 10-gwei cap.
    await devnet.provider.request({
      method: 'hardhat_setNextBlockBaseFeePerGas',
      params: [`0x${(6n * 10n ** 9n).toString(16)}`],
    } as never);
    await devnet.provider.request({ method: 'evm_mine', params: [] } as never);
    const prepared = await s.prepare((await buildBuy(s)).tx);
    const fee = prepared.warnings.find((warning) => warning.id === 'fee-above-median');
    expect(fee?.message).toMatch(/gwei per gas, \d+ times the .* gwei recent blocks paid: up to [\d.]+ BNB \(\$/);
  });

  it('signs a message that is not a challenge only when the page says the person confirmed it shown in full', async () => {
    const unconfirmed = await s.call('message.sign', { message: 'hello', kind: 'x', title: 'x' });
    expect(unconfirmed.error?.code).toBe('UNKNOWN_MESSAGE');
    const signed = await s.call('message.sign', { message: 'hello', kind: 'x', title: 'x', confirmedUnknown: true });
    const { signature } = signed.result as { signature: Hex };
    expect(await recoverMessageAddress({ message: 'hello', signature })).toBe(PERSON.address);
  });
});
