import type { CompanionApi } from './createCompanion';
import { dataOrThrow } from './dataOrThrow';
import type { components } from './schema';

export type TradeQuote = components['schemas']['TradeQuote'];

export interface QuoteQuery {
  token: string;
  side: 'buy' | 'sell';
  /** Whole units of the exact side: what is paid (exact in, the default) or received (exact out). */
  amount: string;
  exact?: 'in' | 'out';
  /** 1 to 5000; the service's default (50) when left out. */
  slippageBps?: number;
}

/**
 * GET /quote: what a trade gets right now; sends nothing.
 *
 * @example const { receive, priceImpactPct } = await getQuote(companion.api, { token, side: 'buy', amount: '0.1' });
 */
export function getQuote(api: CompanionApi, query: QuoteQuery): Promise<TradeQuote> {
  return dataOrThrow(api.GET('/quote', { params: { query } }));
}
