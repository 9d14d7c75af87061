import { type Address, encodeFunctionData, type Hex, parseEther, zeroAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { launchFactoryAbi, tradeRouterAbi } from '../generated/abis';
import type { UnsignedTx } from '../schema/unsignedTx';
import { type Check, type CheckContext, checkTransaction } from './checkTransaction';
import { decodeCall, type TradeFunction } from './decodeCall';
import type {
  ClaimExpectation,
  Expectation,
  LaunchExpectation,
  StepExpectation,
  TradeExpectation,
} from './expectation';
import {
  CHAIN_ID,
  claimTx,
  erc20ApproveTx,
  KNOWN,
  launchParams,
  launchTx,
  NOW,
  OTHER,
  permit2ApproveTx,
  REFERRER,
  TOKEN,
  TOKENS,
  tradeParams,
  tradeTx,
  USDT,
  WALLET,
} from './testVectors';

const ctx: CheckContext = { known: KNOWN, now: NOW, tokens: TOKENS };
const DEAD = '0x000000000000000000000000000000000000dEaD';

function check(tx: UnsignedTx, expected: Expectation, context: CheckContext = ctx): Check[] {
  return checkTransaction(decodeCall(tx, context), expected, context);
}
const failed = (checks: Check[]) => checks.filter((c) => !c.ok).map((c) => c.id);

const buy: TradeExpectation = {
  kind: 'trade',
  side: 'buy',
  exact: 'in',
  wallet: WALLET,
  token: TOKEN,
  pair: KNOWN.wbnb,
  feeTier: 10000,
  pay: parseEther('0.5'),
  receive: parseEther('1050'),
  limit: { kind: 'minReceive', wei: parseEther('1000') },
  referrer: REFERRER,
  nativeBnb: true,
  deadline: NOW + 1200,
  deadlineMaxSeconds: 1200,
};
const buyTx = (params = tradeParams(), value = parseEther('0.5'), fn: TradeFunction = 'buyExactIn') =>
  tradeTx(fn, params, value);

describe('checkTransaction: trades', () => {
  it('passes a trade that is what was asked, every check named', () => {
    const checks = check(buyTx(), buy);
    expect(failed(checks)).toEqual([]);
    expect(checks.map((c) => c.id)).toEqual([
      'chain-id',
      'to-known',
      'function-known',
      'token-matches',
      'pair-matches',
      'fee-tier-matches',
      'amount-matches',
      'amount-within-limit',
      'referrer-matches',
      'deadline-future',
      'deadline-not-too-far',
      'deadline-matches',
      'value-matches',
    ]);
  });

  it('fails exactly the check of each tamper', () => {
    const { deadline: _, ...noExactDeadline } = buy;
    const loose: TradeExpectation = noExactDeadline;
    const sellData = encodeFunctionData({ abi: tradeRouterAbi, functionName: 'sellExactIn', args: [tradeParams()] });
    const cases: [string, UnsignedTx, Expectation, string[]][] = [
      ['wrong chain', { ...buyTx(), chainId: 56 }, buy, ['chain-id']],
      ['unknown to', { ...buyTx(), to: OTHER }, buy, ['to-known', 'function-known']],
      ['another of our contracts', { ...buyTx(), to: KNOWN.factory }, buy, ['to-known', 'function-known']],
      ['function swapped', { ...buyTx(), data: sellData }, buy, ['function-known']],
      ['token swapped', buyTx(tradeParams({ token: USDT })), buy, ['token-matches']],
      ['pair swapped', buyTx(tradeParams({ pair: USDT })), buy, ['pair-matches']],
      ['pool tier swapped', buyTx(tradeParams({ fee: 500 })), buy, ['fee-tier-matches']],
      ['amount changed', buyTx(tradeParams({ amount: parseEther('0.6') })), buy, ['amount-matches']],
      ['minOut lowered', buyTx(tradeParams({ limit: parseEther('999') })), buy, ['amount-within-limit']],
      ['value changed', buyTx(tradeParams(), parseEther('0.6')), buy, ['value-matches']],
      ['referrer swapped', buyTx(tradeParams({ referrer: OTHER })), buy, ['referrer-matches']],
      ['referrer dropped', buyTx(tradeParams({ referrer: zeroAddress })), buy, ['referrer-matches']],
      ['deadline expired', buyTx(tradeParams({ deadline: BigInt(NOW - 1) })), loose, ['deadline-future']],
      ['deadline too far', buyTx(tradeParams({ deadline: BigInt(NOW + 7200) })), loose, ['deadline-not-too-far']],
      [
        'deadline moved from the one announced',
        buyTx(tradeParams({ deadline: BigInt(NOW + 600) })),
        buy,
        ['deadline-matches'],
      ],
    ];
    for (const [name, tx, expected, ids] of cases) expect(failed(check(tx, expected)), name).toEqual(ids);
  });

  it('accepts a better limit, and a deadline a little ahead of the clock', () => {
    expect(failed(check(buyTx(tradeParams({ limit: parseEther('1001') })), buy))).toEqual([]);
    const { deadline: _, ...loose } = buy;
    expect(failed(check(buyTx(tradeParams({ deadline: BigInt(NOW + 1260) })), loose))).toEqual([]);
  });

  it('expects the ceiling as value for an exact-out BNB buy, and no value for a sale or a token-pair buy', () => {
    const out: TradeExpectation = {
      ...buy,
      exact: 'out',
      pay: parseEther('0.5'),
      receive: parseEther('1000'),
      limit: { kind: 'maxPay', wei: parseEther('0.51') },
    };
    const outParams = tradeParams({ amount: parseEther('1000'), limit: parseEther('0.51') });
    expect(failed(check(tradeTx('buyExactOut', outParams, parseEther('0.51')), out))).toEqual([]);
    expect(failed(check(tradeTx('buyExactOut', outParams, parseEther('0.5')), out))).toEqual(['value-matches']);
    const raisedCeiling = tradeParams({ amount: parseEther('1000'), limit: parseEther('0.6') });
    expect(failed(check(tradeTx('buyExactOut', raisedCeiling, parseEther('0.51')), out))).toEqual([
      'amount-within-limit',
    ]);

    const sell: TradeExpectation = { ...buy, side: 'sell', pay: parseEther('0.5'), nativeBnb: true };
    expect(failed(check(tradeTx('sellExactIn', tradeParams(), 0n), sell))).toEqual([]);
    expect(failed(check(tradeTx('sellExactIn', tradeParams(), 1n), sell))).toEqual(['value-matches']);
    const usdtBuy: TradeExpectation = { ...buy, pair: USDT, nativeBnb: false };
    expect(failed(check(tradeTx('buyExactIn', tradeParams({ pair: USDT }), 0n), usdtBuy))).toEqual([]);
  });

  it('names the expected and found amounts in whole units when a check fails', () => {
    const checks = check(buyTx(tradeParams({ limit: parseEther('999') })), buy);
    const limit = checks.find((c) => c.id === 'amount-within-limit');
    expect(limit?.message).toContain('999 MCAT');
    expect(limit?.message).toContain('1000 MCAT');
  });

  it('checks the signing wallet when it is known', () => {
    expect(failed(check(buyTx(), buy, { ...ctx, signer: WALLET }))).toEqual([]);
    expect(failed(check(buyTx(), buy, { ...ctx, signer: OTHER }))).toEqual(['wallet-matches']);
  });
});

const launch: LaunchExpectation = {
  kind: 'launch',
  wallet: WALLET,
  name: 'Moon Cat',
  symbol: 'MCAT',
  supply: parseEther('1000000000'),
  pair: KNOWN.wbnb,
  nativeBnb: true,
  firstBuy: parseEther('1.5'),
  minTokens: parseEther('1000000'),
  launchFeeWei: parseEther('0.1'),
  feeTier: 10000,
  firstBuyTo: null,
  royalty: { to: WALLET, burnBps: 0 },
  salt: `0x${'ab'.repeat(32)}`,
  metadataURI: 'ipfs://bafkreiexample',
};
const launchValue = parseEther('1.6');

describe('checkTransaction: launches', () => {
  it('passes the launch asked for, and fails exactly the check of each tamper', () => {
    expect(failed(check(launchTx(launchParams(), launchValue), launch))).toEqual([]);
    const split = [
      { wallet: OTHER, bps: 6000 },
      { wallet: DEAD as Address, bps: 4000 },
    ];
    const cases: [string, UnsignedTx, LaunchExpectation, string[]][] = [
      ['name', launchTx(launchParams({ name: 'Moon Dog' }), launchValue), launch, ['name-matches']],
      ['symbol', launchTx(launchParams({ symbol: 'MDOG' }), launchValue), launch, ['symbol-matches']],
      ['supply', launchTx(launchParams({ supply: parseEther('1') }), launchValue), launch, ['supply-matches']],
      ['pair', launchTx(launchParams({ pair: USDT }), launchValue), launch, ['pair-matches']],
      ['tier', launchTx(launchParams({ fee: 2500 }), launchValue), launch, ['fee-tier-matches']],
      ['first buy', launchTx(launchParams({ firstBuy: parseEther('2') }), launchValue), launch, ['amount-matches']],
      ['minTokens lowered', launchTx(launchParams({ minTokens: 1n }), launchValue), launch, ['amount-within-limit']],
      [
        'recipient swapped',
        launchTx(launchParams({ firstBuyTo: [{ wallet: OTHER, bps: 10000 }] }), launchValue),
        launch,
        ['recipient-is-signer'],
      ],
      [
        'split recipient swapped',
        launchTx(launchParams({ firstBuyTo: [{ wallet: REFERRER, bps: 6000 }, split[1] as never] }), launchValue),
        { ...launch, firstBuyTo: split },
        ['recipients-match'],
      ],
      ['royalty redirected', launchTx(launchParams({ royaltyTo: OTHER }), launchValue), launch, ['royalty-matches']],
      ['burn changed', launchTx(launchParams({ burnBps: 10000 }), launchValue), launch, ['royalty-matches']],
      ['salt', launchTx(launchParams({ salt: `0x${'cd'.repeat(32)}` }), launchValue), launch, ['salt-matches']],
      ['metadata', launchTx(launchParams({ metadataURI: 'ipfs://other' }), launchValue), launch, ['metadata-matches']],
      ['value', launchTx(launchParams(), parseEther('1.7')), launch, ['value-matches']],
      ['chain', launchTx(launchParams(), launchValue, { chainId: 1 }), launch, ['chain-id']],
    ];
    for (const [name, tx, expected, ids] of cases) expect(failed(check(tx, expected)), name).toEqual(ids);
    // The split asked for passes; the royalty named as the creator itself passes as the zero address does.
    const splitLaunch = { ...launch, firstBuyTo: split };
    expect(failed(check(launchTx(launchParams({ firstBuyTo: split }), launchValue), splitLaunch))).toEqual([]);
    expect(failed(check(launchTx(launchParams({ royaltyTo: WALLET }), launchValue), launch))).toEqual([]);
  });

  it('expects only the launch fee as value for a token pair, and passes a launch with no first buy', () => {
    const usdt: LaunchExpectation = { ...launch, pair: USDT, nativeBnb: false };
    expect(failed(check(launchTx(launchParams({ pair: USDT }), parseEther('0.1')), usdt))).toEqual([]);
    const bare: LaunchExpectation = { ...launch, firstBuy: null, minTokens: null };
    const params = launchParams({ firstBuy: 0n, minTokens: 0n });
    expect(failed(check(launchTx(params, parseEther('0.1')), bare))).toEqual([]);
  });
});

describe('checkTransaction: claims and steps', () => {
  const proof: Hex[] = [`0x${'11'.repeat(32)}`];
  const claim: ClaimExpectation = {
    kind: 'claim',
    wallet: WALLET,
    referrer: WALLET,
    weeks: [{ week: 2950, amount: parseEther('0.25') }],
  };
  const claims = [{ week: 2950n, amount: parseEther('0.25'), proof }];

  it('checks a claim pays the wallet the weeks it is owed', () => {
    expect(failed(check(claimTx(WALLET, claims), claim))).toEqual([]);
    expect(failed(check(claimTx(OTHER, claims), claim))).toEqual(['referrer-matches', 'recipient-is-signer']);
    expect(failed(check(claimTx(WALLET, [{ week: 2950n, amount: 1n, proof }]), claim))).toEqual(['amount-matches']);
    expect(failed(check({ ...claimTx(WALLET, claims), value: '1' }, claim))).toEqual(['value-matches']);
    expect(failed(check(claimTx(WALLET, claims), claim, { ...ctx, known: { ...KNOWN, referrals: null } }))).toEqual([
      'to-known',
      'function-known',
    ]);
    // Claiming for another referrer: the call must pay that referrer.
    const forOther: ClaimExpectation = { ...claim, referrer: REFERRER };
    expect(failed(check(claimTx(REFERRER, claims), forOther))).toEqual([]);
  });

  const step = (name: StepExpectation['step'], token: Address): StepExpectation => ({
    kind: 'step',
    step: name,
    wallet: WALLET,
    token,
    permitMaxSeconds: 30 * 86_400,
  });
  const month = NOW + 30 * 86_400;

  it('passes each approval step to its spender, and fails a swapped spender, token or function', () => {
    expect(failed(check(erc20ApproveTx(TOKEN, KNOWN.permit2), step('approve-permit2', TOKEN)))).toEqual([]);
    expect(failed(check(permit2ApproveTx(TOKEN, KNOWN.router, month), step('approve-router', TOKEN)))).toEqual([]);
    const firstBuy = 10n ** 20n;
    const factoryStep = { ...step('approve-factory', USDT), amount: firstBuy };
    expect(failed(check(erc20ApproveTx(USDT, KNOWN.factory, firstBuy), factoryStep))).toEqual([]);

    const cases: [string, UnsignedTx, StepExpectation, string[]][] = [
      ['spender swapped', erc20ApproveTx(TOKEN, OTHER), step('approve-permit2', TOKEN), ['spender-known']],
      ['router swapped', permit2ApproveTx(TOKEN, OTHER, month), step('approve-router', TOKEN), ['spender-known']],
      ['factory swapped', erc20ApproveTx(USDT, KNOWN.permit2, firstBuy), factoryStep, ['spender-known']],
      ['factory unlimited', erc20ApproveTx(USDT, KNOWN.factory), factoryStep, ['amount-matches']],
      ['factory over the buy', erc20ApproveTx(USDT, KNOWN.factory, firstBuy + 1n), factoryStep, ['amount-matches']],
      [
        'factory, no amount known',
        erc20ApproveTx(USDT, KNOWN.factory),
        step('approve-factory', USDT),
        ['amount-matches'],
      ],
      ['another token', erc20ApproveTx(USDT, KNOWN.permit2), step('approve-permit2', TOKEN), ['to-known']],
      ['permit token', permit2ApproveTx(USDT, KNOWN.router, month), step('approve-router', TOKEN), ['token-matches']],
      [
        'function swapped',
        { ...erc20ApproveTx(TOKEN, KNOWN.router), to: KNOWN.permit2 },
        step('approve-router', TOKEN),
        ['function-known'],
      ],
      [
        'permit expired',
        permit2ApproveTx(TOKEN, KNOWN.router, NOW - 1),
        step('approve-router', TOKEN),
        ['deadline-future'],
      ],
      [
        'permit too long',
        permit2ApproveTx(TOKEN, KNOWN.router, NOW + 365 * 86_400),
        step('approve-router', TOKEN),
        ['deadline-not-too-far'],
      ],
      [
        'value on an approval',
        { ...erc20ApproveTx(TOKEN, KNOWN.permit2), value: '5' },
        step('approve-permit2', TOKEN),
        ['value-matches'],
      ],
    ];
    for (const [name, tx, expected, ids] of cases) expect(failed(check(tx, expected)), name).toEqual(ids);
  });
});

describe('checkTransaction: a bare transaction', () => {
  const bare: Expectation = { kind: 'unsigned', deadlineMaxSeconds: 1200, permitMaxSeconds: 30 * 86_400 };

  it('checks what the call implies alone', () => {
    expect(failed(check(buyTx(), bare))).toEqual([]);
    expect(failed(check(buyTx(tradeParams(), parseEther('0.4')), bare))).toEqual(['value-matches']);
    expect(failed(check(tradeTx('sellExactIn', tradeParams({ deadline: BigInt(NOW - 5) }), 0n), bare))).toEqual([
      'deadline-future',
    ]);
    expect(failed(check(launchTx(launchParams(), launchValue), bare))).toEqual([]);
    expect(failed(check(launchTx(launchParams(), parseEther('5')), bare))).toEqual(['value-matches']);
    expect(failed(check(erc20ApproveTx(TOKEN, KNOWN.permit2), bare))).toEqual([]);
    expect(failed(check(erc20ApproveTx(TOKEN, OTHER), bare))).toEqual(['spender-known']);
    expect(failed(check(permit2ApproveTx(TOKEN, OTHER, NOW + 60), bare))).toEqual(['spender-known']);
    expect(failed(check({ chainId: CHAIN_ID, to: OTHER, data: '0x', value: '0' }, bare))).toEqual([
      'to-known',
      'function-known',
    ]);
    // The pool's swap callback is ours but never built by the service; a collect of a launch's fees is.
    const callback = encodeFunctionData({
      abi: tradeRouterAbi,
      functionName: 'pancakeV3SwapCallback',
      args: [1n, -1n, '0x'],
    });
    expect(failed(check({ chainId: CHAIN_ID, to: KNOWN.router, data: callback, value: '0' }, bare))).toEqual([
      'function-known',
    ]);
    const collect = encodeFunctionData({ abi: launchFactoryAbi, functionName: 'collect', args: [TOKEN] });
    expect(failed(check({ chainId: CHAIN_ID, to: KNOWN.factory, data: collect, value: '0' }, bare))).toEqual([]);
    expect(failed(check({ chainId: CHAIN_ID, to: KNOWN.factory, data: collect, value: '1' }, bare))).toEqual([
      'value-matches',
    ]);
  });
});

describe('checkTransaction: amounts in the messages', () => {
  it('says a tampered value in BNB with its dollars where the reader has a price, never in wei', () => {
    const priced: CheckContext = { ...ctx, usdPerUnit: (address: Address) => (address === KNOWN.wbnb ? 600 : null) };
    const tampered = check(buyTx(tradeParams(), parseEther('5')), buy, priced);
    const value = tampered.find((c) => c.id === 'value-matches');
    expect(value?.ok).toBe(false);
    expect(value?.message).toContain('sends 5 BNB ($3K); expected 0.5 BNB ($300.00)');
    expect(value?.message).not.toMatch(/\d{10,}/);
    // A worse limit, in the token, which has no price here: units and symbol only.
    const limit = check(buyTx(tradeParams({ limit: parseEther('999') })), buy, priced).find(
      (c) => c.id === 'amount-within-limit',
    );
    expect(limit?.message).toBe('receives at least 999 MCAT, less than the 1000 MCAT accepted');
    // Without prices (the inspector CLI), the same amounts in units only.
    expect(check(buyTx(tradeParams(), parseEther('5')), buy).find((c) => c.id === 'value-matches')?.message).toContain(
      'sends 5 BNB; expected 0.5 BNB',
    );
  });

  it('says a deadline by how far off it is and its day, not as ISO', () => {
    const late = check(buyTx(tradeParams({ deadline: BigInt(NOW - 180) })), { ...buy, deadline: undefined });
    const message = late.find((c) => c.id === 'deadline-future')?.message ?? '';
    expect(message).toMatch(/^the deadline has passed: expired 3 minutes ago, /);
    expect(message).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
  });
});
