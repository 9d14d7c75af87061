import type { Address } from 'viem';
import type { BuildAnswer } from '../wallet/sendBuild';
import { apiBase } from './apiBase';
import { getJson } from './getJson';
import { postJson } from './postJson';

const enc = encodeURIComponent;

export interface Currency {
  address: string;
  symbol: string;
  decimals: number;
}

/** The spec's Token (GET /tokens/{address}). */
export interface TokenInfo {
  address: Address;
  pool: string;
  creator: string;
  symbol: string;
  name: string;
  fee: number;
  decimals: number;
  quote: Currency;
  quoteIsBnb: boolean;
}

export interface TokenTrade {
  tx: string;
  block: number;
  at: string;
  side: 'buy' | 'sell';
  trader: string;
  pairWei: string;
  tokenWei: string;
  feeWei: string;
  referrer: string | null;
}

export interface TokenMarket {
  /** Pair wei for one whole token. */
  priceWei: string;
  marketCap: { amount: string; wei: string };
  marketCapUsd: number | null;
  pair: Currency;
  supplyWei: string;
}

export interface TokenTrades {
  trades: TokenTrade[];
  market: TokenMarket;
}

export interface Balances {
  wallet: string;
  bnbWei: string;
  token: Currency & { wei: string };
  pair: Currency & { wei: string; native: boolean };
}

export type Side = 'buy' | 'sell';
export type Exact = 'in' | 'out';

interface Amount {
  amount: string;
  wei: string;
  symbol: string;
}

/** The quote columns of the spec's Trade. */
export interface TradeQuote {
  side: Side;
  exact: Exact;
  slippageBps: number;
  pay: Amount;
  receive: Amount;
  limit: { amount: string; wei: string; kind: 'minReceive' | 'maxPay' };
  siteFee: Amount & { bps: number };
  priceImpactPct: number;
}

export interface TradeBuild extends TradeQuote, BuildAnswer {
  wallet: string;
  referrer: { address: string; bps: number } | null;
}

export interface TradeAsk {
  token: Address;
  side: Side;
  amount: string;
  exact: Exact;
  slippageBps: number;
}

/** The token's facts; UNKNOWN_TOKEN when this service did not launch it. */
export function fetchToken(address: string): Promise<TokenInfo> {
  return getJson(`${apiBase}/tokens/${enc(address)}`);
}

/** The token's latest trades (newest first) and its market now. */
export function fetchTokenTrades(address: string, limit: number): Promise<TokenTrades> {
  return getJson(`${apiBase}/tokens/${enc(address)}/trades?limit=${limit}`);
}

/** Read from the chain, not the index, so a trade just confirmed shows at once. */
export function fetchBalances(wallet: string, token: string): Promise<Balances> {
  return getJson(`${apiBase}/balances?wallet=${enc(wallet)}&token=${enc(token)}`);
}

/** What the trade gets right now; sends nothing. */
export function fetchQuote(ask: TradeAsk): Promise<TradeQuote> {
  const query = new URLSearchParams({
    token: ask.token,
    side: ask.side,
    amount: ask.amount,
    exact: ask.exact,
    slippageBps: String(ask.slippageBps),
  });
  return getJson(`${apiBase}/quote?${query}`);
}

/**
 * Builds the trade for `wallet`; `referrer` is sent only when a referral link named one (left out, an API key's
 * wallet could be offered instead).
 */
export function buildTrade(wallet: Address, ask: TradeAsk, referrer: Address | null): Promise<TradeBuild> {
  const { side, ...body } = ask;
  return postJson(`${apiBase}/build/${side}`, { wallet, ...body, ...(referrer ? { referrer } : {}) });
}
