import type { Address } from 'viem';
import type { components } from '../../../clients/ts/src/index';
import { answerOf, api } from './client';

type Schemas = components['schemas'];

/** The spec's Token (GET /tokens/{address}); its address is the one asked for, checksummed. */
export type TokenInfo = Schemas['Token'] & { address: Address };
export type Currency = TokenInfo['quote'];
export type TokenTrade = Schemas['TokenTrade'];
export type TokenMarket = Schemas['TokenMarket'];
export type TokenTrades = Schemas['TokenTrades'];
export type Balances = Schemas['Balances'];
/** The quote columns of the spec's Trade. */
export type TradeQuote = Schemas['TradeQuote'];
export type TradeBuild = Schemas['TradeBuild'];
export type Side = TradeQuote['side'];
export type Exact = TradeQuote['exact'];

export interface TradeAsk {
  token: Address;
  side: Side;
  amount: string;
  exact: Exact;
  slippageBps: number;
}

/** The token's facts; UNKNOWN_TOKEN when this service did not launch it. */
export async function fetchToken(address: string): Promise<TokenInfo> {
  return (await answerOf(api.GET('/tokens/{address}', { params: { path: { address } } }))) as TokenInfo;
}

/** The token's latest trades (newest first) and its market now. */
export function fetchTokenTrades(address: string, limit: number): Promise<TokenTrades> {
  return answerOf(api.GET('/tokens/{address}/trades', { params: { path: { address }, query: { limit } } }));
}

/** Read from the chain, not the index, so a trade just confirmed shows at once. */
export function fetchBalances(wallet: string, token: string): Promise<Balances> {
  return answerOf(api.GET('/balances', { params: { query: { wallet, token } } }));
}

/** What the trade gets right now; sends nothing. */
export function fetchQuote(ask: TradeAsk): Promise<TradeQuote> {
  return answerOf(api.GET('/quote', { params: { query: ask } }));
}

/**
 * Builds the trade for `wallet`; `referrer` is sent only when a referral link named one (left out, an API key's
 * wallet could be offered instead).
 */
export function buildTrade(wallet: Address, ask: TradeAsk, referrer: Address | null): Promise<TradeBuild> {
  const { side, ...body } = ask;
  const path = side === 'buy' ? '/build/buy' : '/build/sell';
  return answerOf(api.POST(path, { body: { wallet, ...body, ...(referrer ? { referrer } : {}) } }));
}
