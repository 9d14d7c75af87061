import type { Address } from 'viem';
import { formatDecimalAmount, parseDecimalAmount } from '../core/units/decimalAmount';
import { type MicroPrice, usdText } from '../core/units/dollarValue';
import { type Quote, type QuoteRequest, quotePrices } from '../services/quoteService';
import type { TokenFacts, TokenRegistry } from '../services/tokenRegistry';

/** A trade's terms as its schema read them (QuoteQuerySchema for a quote, TradeBodySchema for a build). */
export interface TradeTerms {
  token: Address;
  side: 'buy' | 'sell';
  amount: string;
  exact: 'in' | 'out';
  slippageBps: number;
}

/**
 * The trade that checked terms ask for, with what needs the chain: the token's facts (UNKNOWN_TOKEN unless launched
 * here), and the amount in wei in the decimals of the exact side's currency (the pair for buys exact in and sells
 * exact out, the token otherwise; TOO_MANY_DECIMALS for more places, INVALID_AMOUNT for zero).
 */
export async function tradeRequest(terms: TradeTerms, tokens: TokenRegistry): Promise<QuoteRequest> {
  return tradeRequestFor(terms, await tokens.get(terms.token, 'token'));
}

/** `tradeRequest` for a token whose facts are already read. */
export function tradeRequestFor(terms: TradeTerms, token: TokenFacts): QuoteRequest {
  const { side, exact, slippageBps } = terms;
  const pairSide = (side === 'buy') === (exact === 'in');
  const decimals = pairSide ? token.pair.decimals : token.decimals;
  const amount = parseDecimalAmount(terms.amount, decimals, 'amount');
  return { token, side, exact, amount, slippageBps };
}

const amount = (currency: { decimals: number; symbol: string }, wei: bigint, price: MicroPrice | null) => ({
  amount: formatDecimalAmount(wei, currency.decimals),
  wei: wei.toString(),
  symbol: currency.symbol,
  usd: usdText(wei, price),
});

/** The spec's Trade fields shared by quotes and builds, each amount with its dollar value (an addition). */
export function tradeJson(quote: Quote) {
  const limitCurrency = quote.limitKind === 'minReceive' ? quote.receiveCurrency : quote.payCurrency;
  const { token } = quote;
  const prices = quotePrices(quote);
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
    pay: amount(quote.payCurrency, quote.pay, prices.pay),
    receive: amount(quote.receiveCurrency, quote.receive, prices.receive),
    limit: {
      amount: formatDecimalAmount(quote.limit, limitCurrency.decimals),
      wei: quote.limit.toString(),
      kind: quote.limitKind,
      usd: usdText(quote.limit, quote.limitKind === 'minReceive' ? prices.receive : prices.pay),
    },
    siteFee: {
      amount: formatDecimalAmount(quote.siteFee, token.pair.decimals),
      wei: quote.siteFee.toString(),
      symbol: token.pair.symbol,
      bps: quote.siteFeeBps,
      usd: usdText(quote.siteFee, prices.pair),
    },
    priceImpactPct: quote.priceImpactPct,
  };
}
