import { type Address, encodeFunctionData, parseEther, zeroAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { launchTokenAbi, tradeRouterAbi } from '../../../src-shared/generated/abis';
import { decodeCall } from '../../../src-shared/inspect/decodeCall';
import { devnetKnownContracts } from '../../../src-shared/inspect/devnetContracts';
import {
  KNOWN,
  launchParams,
  launchTx,
  NOW,
  OTHER,
  tradeParams,
  tradeTx,
  USDT,
  TOKENS as VECTOR_TOKENS,
  WALLET,
} from '../../../src-shared/inspect/testVectors';
import { moneyFlowOf } from './moneyFlow';

const DEVNET_KNOWN = devnetKnownContracts().known;
const TOKEN = '0x00000000000000000000000000000000000000aa' as Address;
const TOKENS = { [TOKEN]: { symbol: 'OWL', decimals: 18 } };
const usd = (address: Address) => (address.toLowerCase() === DEVNET_KNOWN.wbnb.toLowerCase() ? 600 : null);

describe('moneyFlowOf', () => {
  it('reads an exact-in buy as what is paid and the least that comes back, from the decoded call', () => {
    const params = {
      token: TOKEN,
      pair: DEVNET_KNOWN.wbnb,
      fee: 10_000,
      amount: parseEther('1.5'),
      limit: parseEther('1000'),
      referrer: zeroAddress,
      deadline: 2_000_000_000n,
    };
    const data = encodeFunctionData({ abi: tradeRouterAbi, functionName: 'buyExactIn', args: [params] });
    const summary = decodeCall(
      { chainId: DEVNET_KNOWN.chainId, to: DEVNET_KNOWN.router, data, value: params.amount.toString() },
      { known: DEVNET_KNOWN, tokens: TOKENS, now: 1_900_000_000 },
    );
    const flow = moneyFlowOf(summary, DEVNET_KNOWN, TOKENS, usd, 21_000n * 10n ** 9n);
    expect(flow.pay).toEqual({
      label: 'You pay',
      amount: { wei: parseEther('1.5'), decimals: 18, symbol: 'BNB', usdPerUnit: 600 },
    });
    expect(flow.get).toEqual({
      label: 'You get at least',
      amount: { wei: parseEther('1000'), decimals: 18, symbol: 'OWL', usdPerUnit: null },
    });
    expect(flow.networkFeeWei).toBe(21_000n * 10n ** 9n);
    expect(flow.to).toEqual({ address: DEVNET_KNOWN.router, name: 'TradeRouter' });
  });

  it('reads an exact-out sell as at most so many tokens for an exact amount of the pair', () => {
    const params = {
      token: TOKEN,
      pair: DEVNET_KNOWN.wbnb,
      fee: 10_000,
      amount: parseEther('2'),
      limit: parseEther('5000'),
      referrer: zeroAddress,
      deadline: 2_000_000_000n,
    };
    const data = encodeFunctionData({ abi: tradeRouterAbi, functionName: 'sellExactOut', args: [params] });
    const summary = decodeCall(
      { chainId: DEVNET_KNOWN.chainId, to: DEVNET_KNOWN.router, data, value: '0' },
      { known: DEVNET_KNOWN, tokens: TOKENS, now: 1_900_000_000 },
    );
    const flow = moneyFlowOf(summary, DEVNET_KNOWN, TOKENS, usd, null);
    expect(flow.pay?.label).toBe('You pay at most');
    expect(flow.pay?.amount.wei).toBe(parseEther('5000'));
    expect(flow.pay?.amount.symbol).toBe('OWL');
    expect(flow.get?.label).toBe('You get');
    expect(flow.get?.amount).toEqual({ wei: parseEther('2'), decimals: 18, symbol: 'BNB', usdPerUnit: 600 });
  });

  it('pays and gets nothing for an approval', () => {
    const data = encodeFunctionData({
      abi: launchTokenAbi,
      functionName: 'approve',
      args: [DEVNET_KNOWN.permit2, 2n ** 256n - 1n],
    });
    const summary = decodeCall(
      { chainId: DEVNET_KNOWN.chainId, to: TOKEN, data, value: '0' },
      { known: DEVNET_KNOWN, tokens: TOKENS, now: 1_900_000_000 },
    );
    const flow = moneyFlowOf(summary, DEVNET_KNOWN, TOKENS, usd, null);
    expect(flow.pay).toBeNull();
    expect(flow.get).toBeNull();
    expect(flow.to.address).toBe(TOKEN);
  });

  it('reads a native buy as the BNB the transaction really sends, and says when that is not what the call pays', () => {
    // The build said 0.2 BNB and its call still pays 0.2; someone changed only the value, to 2 BNB.
    const summary = decodeCall(tradeTx('buyExactIn', tradeParams({ amount: parseEther('0.2') }), parseEther('2')), {
      known: KNOWN,
      tokens: VECTOR_TOKENS,
      now: NOW,
    });
    const price = (address: Address) => (address === KNOWN.wbnb ? 600 : null);
    const flow = moneyFlowOf(summary, KNOWN, VECTOR_TOKENS, price, null, WALLET);
    expect(flow.pay).toEqual({
      label: 'You pay',
      amount: { wei: parseEther('2'), decimals: 18, symbol: 'BNB', usdPerUnit: 600 },
    });
    expect(flow.valueMismatch?.sent.wei).toBe(parseEther('2'));
    expect(flow.valueMismatch?.callPays.wei).toBe(parseEther('0.2'));
    // Sent as the call pays: no mismatch, and the pay is that value.
    const honest = moneyFlowOf(
      decodeCall(tradeTx('buyExactIn', tradeParams({ amount: parseEther('0.2') }), parseEther('0.2')), {
        known: KNOWN,
        tokens: VECTOR_TOKENS,
        now: NOW,
      }),
      KNOWN,
      VECTOR_TOKENS,
      price,
      null,
      WALLET,
    );
    expect(honest.pay?.amount.wei).toBe(parseEther('0.2'));
    expect(honest.valueMismatch).toBeNull();
  });

  it('says BNB sent with a sell, which pays none, beside the tokens it pays', () => {
    const summary = decodeCall(tradeTx('sellExactIn', tradeParams({ amount: parseEther('500') }), parseEther('1')), {
      known: KNOWN,
      tokens: VECTOR_TOKENS,
      now: NOW,
    });
    const flow = moneyFlowOf(summary, KNOWN, VECTOR_TOKENS, () => null, null, WALLET);
    expect(flow.pay?.amount).toMatchObject({ wei: parseEther('500'), symbol: 'MCAT' });
    expect(flow.valueMismatch).toMatchObject({ sent: { wei: parseEther('1') }, callPays: { wei: 0n } });
  });

  it('reads a native launch as all it sends: the first buy and the launch fee above it', () => {
    const params = launchParams({ firstBuy: parseEther('1.5') });
    const summary = decodeCall(launchTx(params, parseEther('1.51')), { known: KNOWN, tokens: VECTOR_TOKENS, now: NOW });
    const flow = moneyFlowOf(summary, KNOWN, VECTOR_TOKENS, () => 600, null, WALLET);
    expect(flow.pay?.amount.wei).toBe(parseEther('1.51'));
    expect(flow.payParts.map((part) => [part.what, part.amount.wei])).toEqual([
      ['first buy', parseEther('1.5')],
      ['launch fee', parseEther('0.01')],
    ]);
    expect(flow.get).toEqual({
      label: 'You get at least',
      amount: { wei: parseEther('1000000'), decimals: 18, symbol: 'MCAT', usdPerUnit: null },
    });
    expect(flow.firstBuyTo).toEqual([]);
    expect(flow.valueMismatch).toBeNull();
  });

  it('reads a launch paid in a token as that token for the first buy and BNB for the fee', () => {
    const params = launchParams({ pair: USDT, firstBuy: parseEther('100') });
    const summary = decodeCall(launchTx(params, parseEther('0.01')), { known: KNOWN, tokens: VECTOR_TOKENS, now: NOW });
    const flow = moneyFlowOf(summary, KNOWN, VECTOR_TOKENS, () => null, null, WALLET);
    expect(flow.pay?.amount).toMatchObject({ wei: parseEther('100'), symbol: 'USDT' });
    expect(flow.payParts.map((part) => [part.what, part.amount.symbol, part.amount.wei])).toEqual([
      ['first buy', 'USDT', parseEther('100')],
      ['launch fee', 'BNB', parseEther('0.01')],
    ]);
  });

  it('gives the signer of a split first buy only its own share, and names who gets the rest', () => {
    const split = launchParams({
      minTokens: parseEther('1000001'),
      firstBuyTo: [
        { wallet: OTHER, bps: 7000 },
        { wallet: WALLET, bps: 3000 },
      ],
    });
    const summary = decodeCall(launchTx(split, parseEther('1.5')), { known: KNOWN, tokens: VECTOR_TOKENS, now: NOW });
    const flow = moneyFlowOf(summary, KNOWN, VECTOR_TOKENS, () => null, null, WALLET);
    // Each share of the floor rounded down, as the factory rounds each share of what it bought.
    expect(flow.firstBuyTo.map((s) => [s.wallet, s.bps, s.isSigner, s.atLeast.wei])).toEqual([
      [OTHER, 7000, false, (parseEther('1000001') * 7000n) / 10_000n],
      [WALLET, 3000, true, (parseEther('1000001') * 3000n) / 10_000n],
    ]);
    expect(flow.get?.label).toBe('You get at least');
    expect(flow.get?.amount.wei).toBe((parseEther('1000001') * 3000n) / 10_000n);
  });

  it('says the signer gets nothing when the whole first buy goes to other wallets', () => {
    const dead = '0x000000000000000000000000000000000000dEaD';
    const elsewhere = launchParams({
      firstBuyTo: [
        { wallet: OTHER, bps: 9000 },
        { wallet: dead, bps: 1000 },
      ],
    });
    const summary = decodeCall(launchTx(elsewhere, parseEther('1.5')), {
      known: KNOWN,
      tokens: VECTOR_TOKENS,
      now: NOW,
    });
    const flow = moneyFlowOf(summary, KNOWN, VECTOR_TOKENS, () => null, null, WALLET);
    expect(flow.get).toBeNull();
    expect(flow.firstBuyTo.map((s) => [s.isSigner, s.name])).toEqual([
      [false, null],
      [false, 'dead address: burned'],
    ]);
    expect(flow.firstBuyTo.reduce((sum, s) => sum + s.atLeast.wei, 0n)).toBe(parseEther('1000000'));
  });
});
