import { encodeFunctionData, parseEther } from 'viem';
import { describe, expect, it } from 'vitest';
import { tradeRouterAbi } from '../generated/abis';
import { type InspectResult, inspectBuild } from './inspectBuild';
import { readSettings } from './readSettings';
import {
  claimTx,
  collectTx,
  erc20ApproveTx,
  KNOWN,
  launchParams,
  launchTx,
  NOW,
  OTHER,
  permit2ApproveTx,
  REFERRER,
  sellBuild,
  TOKEN,
  tradeParams,
  tradeTx,
  USDT,
  WALLET,
} from './testVectors';

const ctx = { known: KNOWN, now: NOW };
const failedIds = (result: InspectResult) =>
  [...result.steps.flatMap((s) => s.checks), ...result.main.checks].filter((c) => !c.ok).map((c) => c.id);
const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

/** A POST /build/launch answer for a USDT pair with a first buy, so it needs the factory approval. */
function launchBuild() {
  const params = launchParams({ pair: USDT, firstBuyTo: [{ wallet: OTHER, bps: 10000 }] });
  return {
    wallet: WALLET,
    token: '0x00000000000000000000000000000000000001a0',
    name: 'Moon Cat',
    symbol: 'MCAT',
    supply: { amount: '1000000000', wei: params.supply.toString() },
    pair: { address: USDT, decimals: 18, symbol: 'USDT', priced: true },
    opening: { tick: params.openingTick, marketCapPair: 25, marketCapUsd: 25, driftFromAskedPct: 0.5 },
    feeTier: 10000,
    firstBuy: {
      spend: { amount: '1.5', wei: params.firstBuy.toString() },
      minTokens: { amount: '1000000', wei: params.minTokens.toString() },
    },
    launchFee: { amount: '0.1', wei: parseEther('0.1').toString() },
    creatorFeeRecipient: WALLET,
    royalty: { kind: 'keep', burnPct: 0, to: WALLET, explain: '' },
    shape: 'flat',
    ranges: params.ranges,
    firstBuyTo: [{ wallet: OTHER, pct: 100 }],
    salt: params.salt,
    metadata: { uri: params.metadataURI },
    requires: [
      {
        step: 'approve-factory',
        explain: 'Let the factory take USDT',
        tx: erc20ApproveTx(USDT, KNOWN.factory, params.firstBuy),
      },
    ],
    tx: launchTx(params, parseEther('0.1')),
    simulation: { ran: false, ok: false },
    cost: { gasPriceWei: '1', maxWei: '1', max: '0' },
    explain: 'Launch Moon Cat',
  };
}

function claimBuild() {
  const weeks = [
    { week: 2950, amount: parseEther('0.25').toString() },
    { week: 2951, amount: parseEther('0.5').toString() },
  ];
  const claims = weeks.map((w) => ({ week: BigInt(w.week), amount: BigInt(w.amount), proof: [] }));
  return {
    wallet: WALLET,
    referrer: WALLET,
    weeks,
    total: { amount: '0.75', wei: parseEther('0.75').toString(), symbol: 'BNB' },
    tx: { ...claimTx(WALLET, claims), gas: '90000' },
    simulation: { ran: true, ok: true },
    cost: { gasPriceWei: '1', maxWei: '1', max: '0' },
    explain: 'Claim',
  };
}

/** A POST /build/collect answer sent by another wallet than the royalty recipient, from its simulation. */
function collectBuild() {
  const amount = (wei: bigint, symbol: string) => ({ amount: '0', wei: wei.toString(), symbol, usd: null });
  return {
    wallet: WALLET,
    token: {
      address: TOKEN,
      symbol: 'MCAT',
      name: 'Moon Cat',
      decimals: 18,
      pool: OTHER,
      pair: { address: KNOWN.wbnb, symbol: 'BNB', decimals: 18 },
    },
    recipient: REFERRER,
    outcome: {
      simulated: true,
      pairFees: amount(parseEther('0.02'), 'BNB'),
      tokenFees: amount(parseEther('300'), 'MCAT'),
      royalty: { pair: amount(parseEther('0.01'), 'BNB'), tokens: amount(parseEther('150'), 'MCAT') },
      burned: amount(parseEther('420.5'), 'MCAT'),
      buyback: {
        pendingBefore: amount(0n, 'BNB'),
        budget: amount(parseEther('0.01'), 'BNB'),
        pendingAfter: amount(parseEther('0.001'), 'BNB'),
      },
    },
    tx: { ...collectTx(TOKEN), gas: '300000' },
    simulation: { ran: true, ok: true },
    cost: { gasPriceWei: '1', maxWei: '1', max: '0', usd: null },
    explain: 'Collect',
  };
}

describe('inspectBuild', () => {
  it('checks a sell build and each of its steps by the answer’s own claims', () => {
    const result = inspectBuild(sellBuild(), ctx);
    expect(failedIds(result)).toEqual([]);
    expect(result).toMatchObject({ kind: 'trade', ok: true, intentId: null });
    expect(result.steps.map((s) => [s.step, s.summary?.function])).toEqual([
      ['approve-permit2', 'approve'],
      ['approve-router', 'approve'],
    ]);
    expect(result.main.summary).toMatchObject({
      function: 'sellExactIn',
      gas: null,
      fees: { siteFeeBps: 100, referrerBps: 20 },
    });
    expect(result.main.summary?.args.find((a) => a.name === 'amount')?.display).toBe('pays exactly 1000 MCAT');
    expect(result.main.checks.map((c) => c.id)).toContain('limit-matches-slippage');
  });

  it('catches a change to the data, target, value or chain as a mismatch with the claims', () => {
    const lowered = encodeFunctionData({
      abi: tradeRouterAbi,
      functionName: 'sellExactIn',
      args: [tradeParams({ amount: parseEther('1000'), limit: parseEther('0.1') })],
    });
    const cases: [string, (b: ReturnType<typeof sellBuild>) => void, string[]][] = [
      ['minOut lowered', (b) => Object.assign(b.tx, { data: lowered }), ['amount-within-limit']],
      ['value', (b) => Object.assign(b.tx, { value: '1' }), ['value-matches']],
      ['chain', (b) => Object.assign(b.tx, { chainId: 56 }), ['chain-id']],
      ['to', (b) => Object.assign(b.tx, { to: OTHER }), ['to-known', 'function-known']],
      [
        'limit loosened in the claims only',
        (b) => Object.assign(b.limit, { wei: parseEther('0.49').toString() }),
        ['limit-matches-slippage'],
      ],
      [
        'limit claimed stricter than the call',
        (b) => Object.assign(b.limit, { wei: parseEther('0.498').toString() }),
        ['amount-within-limit'],
      ],
      [
        'limit loosened in claims and call alike',
        (b) => {
          Object.assign(b.tx, { data: lowered });
          Object.assign(b.limit, { wei: parseEther('0.1').toString() });
        },
        ['limit-matches-slippage'],
      ],
      [
        'step spender swapped',
        (b) => Object.assign(b.requires[1]?.tx ?? {}, permit2ApproveTx(TOKEN, OTHER, NOW + 60)),
        ['spender-known'],
      ],
      ['claimed referrer changed', (b) => Object.assign(b, { referrer: null }), ['referrer-matches']],
      ['expiry claimed later', (b) => Object.assign(b, { expiresAt: iso(NOW + 1000) }), ['deadline-matches']],
    ];
    for (const [name, tamper, ids] of cases) {
      const build = sellBuild();
      tamper(build);
      const result = inspectBuild(build, ctx);
      expect(failedIds(result), name).toEqual(ids);
      expect(result.ok, name).toBe(ids.length === 0);
    }
  });

  it('flags a step that a BNB buy does not need', () => {
    const build = sellBuild();
    Object.assign(build, { side: 'buy' });
    Object.assign(
      build.tx,
      tradeTx('buyExactIn', tradeParams({ amount: parseEther('1000'), limit: parseEther('0.4975') }), 0n),
    );
    const ids = failedIds(inspectBuild(build, ctx));
    expect(ids.filter((id) => id === 'step-expected')).toHaveLength(2);
  });

  it('checks a launch build, its approval step and its first-buy recipients', () => {
    const result = inspectBuild(launchBuild(), ctx);
    expect(failedIds(result)).toEqual([]);
    expect(result.kind).toBe('launch');
    expect(result.main.summary?.args.find((a) => a.name === 'firstBuy')?.display).toBe('1.5 USDT');
    const swapped = launchBuild();
    Object.assign(
      swapped.tx,
      launchTx(launchParams({ pair: USDT, firstBuyTo: [{ wallet: REFERRER, bps: 10000 }] }), 1n),
    );
    expect(failedIds(inspectBuild(swapped, ctx))).toEqual(['recipients-match', 'value-matches']);
    // The factory's approval is for exactly the first buy: an unlimited one fails, whatever the build says.
    const unlimited = launchBuild();
    const approval = unlimited.requires[0];
    if (!approval) throw new Error('no approval step');
    approval.tx = erc20ApproveTx(USDT, KNOWN.factory);
    expect(failedIds(inspectBuild(unlimited, ctx))).toEqual(['amount-matches']);
  });

  it('checks a claim build', () => {
    expect(failedIds(inspectBuild(claimBuild(), ctx))).toEqual([]);
    const build = claimBuild();
    Object.assign(build.tx, claimTx(OTHER, [{ week: 2950n, amount: parseEther('0.25'), proof: [] }]));
    expect(failedIds(inspectBuild(build, ctx))).toEqual(['referrer-matches', 'recipient-is-signer', 'amount-matches']);
  });

  it('checks a collect build and shows who gains what as the build says', () => {
    const result = inspectBuild(collectBuild(), ctx);
    expect(failedIds(result)).toEqual([]);
    expect(result).toMatchObject({ kind: 'collect', wallet: WALLET, ok: true });
    expect(result.main.checks.map((c) => c.id)).toEqual([
      'chain-id',
      'to-known',
      'function-known',
      'token-matches',
      'value-matches',
    ]);
    const notes = result.main.summary?.notes ?? [];
    expect(notes).toContain('the build says (by its simulation): it takes 0.02 BNB and 300 MCAT of fees');
    expect(notes).toContain(`the build says: ${REFERRER} receives 0.01 BNB and 150 MCAT`);
    expect(notes).toContain('the build says: 420.5 MCAT are burned, and 0.001 BNB stays pending for a later buy-back');
    const cases: [string, (b: ReturnType<typeof collectBuild>) => void, string[]][] = [
      ['another token', (b) => Object.assign(b.tx, collectTx(USDT)), ['token-matches']],
      ['another target', (b) => Object.assign(b.tx, { to: OTHER }), ['to-known', 'function-known']],
      ['BNB sent', (b) => Object.assign(b.tx, { value: '1' }), ['value-matches']],
    ];
    for (const [name, tamper, ids] of cases) {
      const build = collectBuild();
      tamper(build);
      expect(failedIds(inspectBuild(build, ctx)), name).toEqual(ids);
    }
    const unsimulated = collectBuild();
    Object.assign(unsimulated.outcome.buyback, { pendingAfter: null });
    Object.assign(unsimulated.outcome, { simulated: false });
    expect(inspectBuild(unsimulated, ctx).main.summary?.notes).toContain(
      'the build says: 420.5 MCAT are burned, the buy-back spending up to 0.01 BNB',
    );
  });

  it('checks a prepared request against the build it holds', () => {
    const intent = (build: unknown, request: Record<string, unknown> = { token: TOKEN, amount: '1000' }) => ({
      id: 'int_0123456789abcdef01234567',
      kind: 'prepare_sell',
      wallet: WALLET,
      state: build === null ? 'pending' : 'built',
      request: { wallet: WALLET, ...request },
      build,
      keyWallet: null,
      tx: null,
      reason: null,
      createdAt: iso(NOW),
      updatedAt: iso(NOW),
    });
    const result = inspectBuild(intent(sellBuild()), ctx);
    expect(result).toMatchObject({ kind: 'trade', intentId: 'int_0123456789abcdef01234567', ok: true });
    expect(failedIds(inspectBuild(intent(sellBuild(), { token: USDT }), ctx))).toEqual(['intent-matches']);
    expect(failedIds(inspectBuild({ ...intent(sellBuild()), wallet: OTHER }, ctx))).toEqual(['wallet-matches']);
    expect(failedIds(inspectBuild({ ...intent(sellBuild()), kind: 'prepare_buy' }, ctx))).toEqual(['intent-matches']);
    const pending = inspectBuild(intent(null), ctx);
    expect(pending).toMatchObject({ kind: 'invalid', ok: false });
    expect(failedIds(pending)).toEqual(['input-shape']);
  });

  it('checks a bare unsigned transaction by what the call implies', () => {
    const tx = tradeTx('buyExactIn', tradeParams(), parseEther('0.5'));
    expect(inspectBuild(tx, ctx)).toMatchObject({ kind: 'unsigned', ok: true });
    expect(failedIds(inspectBuild({ ...tx, value: '0' }, ctx))).toEqual(['value-matches']);
  });

  it('answers anything else with a failed input-shape check, never throwing', () => {
    const sell = sellBuild();
    const inputs: unknown[] = [
      null,
      undefined,
      42,
      'a build',
      [],
      {},
      { tx: {} },
      { ...sell, tx: { ...sell.tx, data: 'not hex' } },
      { ...sell, tx: { ...sell.tx, value: 1 } },
      { ...sell, wallet: 'me' },
      { ...sell, limit: { ...sell.limit, kind: 'maxPay' } },
      { ...sell, expiresAt: 'soon' },
      { ...launchBuild(), salt: '0x12' },
      { ...claimBuild(), weeks: [{ week: 'one' }] },
      { chainId: 1, to: OTHER, data: '0x' },
    ];
    for (const input of inputs) {
      const result = inspectBuild(input, ctx);
      expect(result, JSON.stringify(input)?.slice(0, 80)).toMatchObject({ kind: 'invalid', ok: false });
      expect(failedIds(result)).toEqual(['input-shape']);
    }
    const badStep = sellBuild();
    Object.assign(badStep.requires[0] ?? {}, { tx: { to: 'x' } });
    expect(failedIds(inspectBuild(badStep, ctx))).toEqual(['input-shape']);
  });
});

describe('readSettings', () => {
  it('reads the contracts, pairs and limits of a GET /settings answer', () => {
    const settings = readSettings({
      apiVersion: 1,
      chainId: 97,
      contracts: { ...KNOWN, referrals: null, quoter: OTHER },
      pairs: [{ address: USDT, decimals: 18, symbol: 'USDT' }],
      limits: { tradeDeadlineSeconds: 600, permitDays: 7 },
    });
    expect(settings).toEqual({
      known: { ...KNOWN, chainId: 97, referrals: null },
      tokens: { [USDT]: { symbol: 'USDT', decimals: 18 } },
      limits: { tradeDeadlineSeconds: 600, permitDays: 7 },
    });
    expect(readSettings({ chainId: 97, contracts: {} })).toHaveProperty('error');
    expect(readSettings('x')).toHaveProperty('error');
  });
});
