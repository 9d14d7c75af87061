import { tradeTermsSchema } from '../../src-shared/schema/quote';
import { LIMITS } from '../core/limits';
import { formatDecimalAmount, parseDecimalAmount } from '../core/units/decimalAmount';
import type { Quote, QuoteRequest } from '../services/quoteService';
import type { TokenRegistry } from '../services/tokenRegistry';
import { readWith } from './validationHook';

/** What a quote or a build asks for, as sent: strings from a query, or JSON values from a body. */
export interface RawTradeInput {
  token: unknown;
  side: unknown;
  amount: unknown;
  exact: unknown;
  slippageBps: unknown;
}

const readTerms = tradeTermsSchema(LIMITS);

/**
 * Checks a trade request field by field, in the order the spec lists them, and reads the amount in the decimals of
 * the exact side's currency (the pair for buys exact in and sells exact out, the token otherwise).
 */
export async function readTradeInput(raw: RawTradeInput, tokens: TokenRegistry): Promise<QuoteRequest> {
  const { side, exact, slippageBps } = readWith(readTerms, {
    side: raw.side,
    exact: raw.exact,
    slippageBps: raw.slippageBps,
  });
  const token = await tokens.get(raw.token, 'token');
  const pairSide = (side === 'buy') === (exact === 'in');
  const decimals = pairSide ? token.pair.decimals : token.decimals;
  const amount = parseDecimalAmount(raw.amount, decimals, 'amount');
  return { token, side, exact, amount, slippageBps };
}

const amount = (currency: { decimals: number; symbol: string }, wei: bigint) => ({
  amount: formatDecimalAmount(wei, currency.decimals),
  wei: wei.toString(),
  symbol: currency.symbol,
});

/** The spec's Trade fields shared by quotes and builds. */
export function tradeJson(quote: Quote) {
  const limitCurrency = quote.limitKind === 'minReceive' ? quote.receiveCurrency : quote.payCurrency;
  const { token } = quote;
  return {
    token: {
      address: token.address,
      symbol: token.symbol,
      pool: token.pool,
      feeTier: token.feeTier,
      pair: { address: token.pair.address, decimals: token.pair.decimals, symbol: token.pair.symbol },
    },
    side: quote.side,
    exact: quote.exact,
    slippageBps: quote.slippageBps,
    pay: amount(quote.payCurrency, quote.pay),
    receive: amount(quote.receiveCurrency, quote.receive),
    limit: {
      amount: formatDecimalAmount(quote.limit, limitCurrency.decimals),
      wei: quote.limit.toString(),
      kind: quote.limitKind,
    },
    siteFee: {
      amount: formatDecimalAmount(quote.siteFee, token.pair.decimals),
      wei: quote.siteFee.toString(),
      symbol: token.pair.symbol,
      bps: quote.siteFeeBps,
    },
    priceImpactPct: quote.priceImpactPct,
  };
}
