/** Vectors for the inspector's unit tests: transactions encoded with the generated ABIs, as the service encodes them. */
import {
  type Address,
  encodeFunctionData,
  getAddress,
  type Hex,
  maxUint160,
  maxUint256,
  parseEther,
  zeroAddress,
} from 'viem';
import {
  allowanceTransferAbi,
  launchFactoryAbi,
  launchTokenAbi,
  referralVaultAbi,
  tradeRouterAbi,
} from '../generated/abis';
import type { UnsignedTx } from '../schema/unsignedTx';
import type { LaunchParams, TradeFunction, TradeParams } from './decodeCall';
import type { KnownContracts, TokenInfos } from './knownContracts';

export const NOW = 1_800_000_000;
export const CHAIN_ID = 97;

const addr = (n: number) => getAddress(`0x${n.toString(16).padStart(40, '0')}`);

export const KNOWN: KnownContracts = {
  chainId: CHAIN_ID,
  factory: addr(0xfac),
  router: addr(0x7e0),
  permit2: '0x000000000022D473030F116dDEE9F6B43aC78BA3',
  referrals: addr(0x7ef),
  wbnb: addr(0xb0b),
  siteFeeRecipient: addr(0xfee),
};

export const WALLET = addr(0xa11ce);
export const OTHER = addr(0xbad);
export const REFERRER = addr(0x7ef7);
export const TOKEN = addr(0x70c);
export const USDT = addr(0x05d);
export const TOKENS: TokenInfos = {
  [TOKEN]: { symbol: 'MCAT', decimals: 18 },
  [USDT]: { symbol: 'USDT', decimals: 18 },
};

export function tradeParams(overrides: Partial<TradeParams> = {}): TradeParams {
  return {
    token: TOKEN,
    pair: KNOWN.wbnb,
    fee: 10000,
    amount: parseEther('0.5'),
    limit: parseEther('1000'),
    referrer: REFERRER,
    deadline: BigInt(NOW + 1200),
    ...overrides,
  };
}

export function tradeTx(fn: TradeFunction, params: TradeParams, value: bigint, over: Partial<UnsignedTx> = {}) {
  const data = encodeFunctionData({ abi: tradeRouterAbi, functionName: fn, args: [params] });
  return { chainId: CHAIN_ID, to: KNOWN.router, data, value: value.toString(), gas: '200000', ...over };
}

export function launchParams(overrides: Partial<LaunchParams> = {}): LaunchParams {
  return {
    name: 'Moon Cat',
    symbol: 'MCAT',
    supply: parseEther('1000000000'),
    salt: `0x${'ab'.repeat(32)}`,
    pair: KNOWN.wbnb,
    fee: 10000,
    openingTick: -207200,
    ranges: [{ tickLower: -207200, tickUpper: 887200, bps: 10000 }],
    firstBuy: parseEther('1.5'),
    minTokens: parseEther('1000000'),
    firstBuyTo: [],
    royaltyTo: zeroAddress,
    burnBps: 0,
    metadataURI: 'ipfs://bafkreiexample',
    ...overrides,
  };
}

export function launchTx(params: LaunchParams, value: bigint, over: Partial<UnsignedTx> = {}): UnsignedTx {
  const data = encodeFunctionData({ abi: launchFactoryAbi, functionName: 'launch', args: [params] });
  return { chainId: CHAIN_ID, to: KNOWN.factory, data, value: value.toString(), ...over };
}

export function claimTx(referrer: Address, claims: { week: bigint; amount: bigint; proof: Hex[] }[]): UnsignedTx {
  const data = encodeFunctionData({ abi: referralVaultAbi, functionName: 'claim', args: [referrer, claims] });
  return { chainId: CHAIN_ID, to: KNOWN.referrals as Address, data, value: '0' };
}

export function collectTx(token: Address = TOKEN): UnsignedTx {
  const data = encodeFunctionData({ abi: launchFactoryAbi, functionName: 'collect', args: [token] });
  return { chainId: CHAIN_ID, to: KNOWN.factory, data, value: '0' };
}

export function permit2ApproveTx(token: Address, spender: Address, expiration: number): UnsignedTx {
  const data = encodeFunctionData({
    abi: allowanceTransferAbi,
    functionName: 'approve',
    args: [token, spender, maxUint160, expiration],
  });
  return { chainId: CHAIN_ID, to: KNOWN.permit2, data, value: '0' };
}

export function erc20ApproveTx(token: Address, spender: Address, amount: bigint = maxUint256): UnsignedTx {
  const data = encodeFunctionData({ abi: launchTokenAbi, functionName: 'approve', args: [spender, amount] });
  return { chainId: CHAIN_ID, to: token, data, value: '0' };
}
/**
 * A POST /build/sell answer as the service gives it (1000 MCAT for about 0.5 BNB, exact in), by default with both
 * approvals still needed.
 */
export function sellBuild(
  requires: { step: string; explain: string; tx: UnsignedTx }[] = [
    { step: 'approve-permit2', explain: 'Let Permit2 move your MCAT', tx: erc20ApproveTx(TOKEN, KNOWN.permit2) },
    {
      step: 'approve-router',
      explain: 'Let the trade router spend your MCAT',
      tx: permit2ApproveTx(TOKEN, KNOWN.router, NOW + 30 * 86_400),
    },
  ],
  slippageBps = 50,
) {
  const params = tradeParams({ amount: parseEther('1000'), limit: parseEther('0.4975') });
  return {
    token: {
      address: TOKEN,
      symbol: 'MCAT',
      pool: OTHER,
      feeTier: 10000,
      pair: { address: KNOWN.wbnb, decimals: 18, symbol: 'BNB' },
    },
    side: 'sell',
    exact: 'in',
    slippageBps,
    pay: { amount: '1000', wei: parseEther('1000').toString(), symbol: 'MCAT' },
    receive: { amount: '0.5', wei: parseEther('0.5').toString(), symbol: 'BNB' },
    limit: { amount: '0.4975', wei: parseEther('0.4975').toString(), kind: 'minReceive' },
    siteFee: { amount: '0.005', wei: parseEther('0.005').toString(), symbol: 'BNB', bps: 100 },
    priceImpactPct: 0.1,
    wallet: WALLET,
    referrer: { address: REFERRER, bps: 20 },
    requires,
    tx: (({ gas: _, ...tx }) => tx)(tradeTx('sellExactIn', params, 0n)),
    simulation: { ran: false, ok: false },
    cost: { gasPriceWei: '1', maxWei: '300000', max: '0.0000000000003' },
    expiresAt: new Date((NOW + 1200) * 1000).toISOString(),
    explain: 'Sell 1000 MCAT for about 0.5 BNB',
  };
}
