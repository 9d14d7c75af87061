import { type Address, encodeFunctionData, parseEther, zeroAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { launchTokenAbi, tradeRouterAbi } from '../../../src-shared/generated/abis';
import { decodeCall } from '../../../src-shared/inspect/decodeCall';
import { devnetKnownContracts } from '../../../src-shared/inspect/devnetContracts';
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
});
