import { z } from '@hono/zod-openapi';
import { ApiError } from '../core/errors';
import { LIMITS } from '../core/limits';
import { formatDecimalAmount, parseDecimalAmount } from '../core/units/decimalAmount';
import type { Exact, Quote, QuoteRequest, Side } from '../services/quoteService';
import type { TokenRegistry } from '../services/tokenRegistry';
import { AddressSchema } from './schemas';

/** What a quote or a build asks for, as sent: strings from a query, or JSON values from a body. */
export interface RawTradeInput {
  token: unknown;
  side: unknown;
  amount: unknown;
  exact: unknown;
  slippageBps: unknown;
}

/**
 * Checks a trade request field by field, in the order the spec lists them, and reads the amount in the decimals of
 * the exact side's currency (the pair for buys exact in and sells exact out, the token otherwise).
 */
export async function readTradeInput(raw: RawTradeInput, tokens: TokenRegistry): Promise<QuoteRequest> {
  const side = raw.side;
  if (side !== 'buy' && side !== 'sell') {
    throw new ApiError('INVALID_SIDE', `side must be buy or sell, not ${JSON.stringify(side) ?? 'nothing'}`, {
      field: 'side',
    });
  }
  const exact = raw.exact ?? 'in';
  if (exact !== 'in' && exact !== 'out') {
    throw new ApiError('INVALID_EXACT', `exact must be in or out, not ${JSON.stringify(exact)}`, { field: 'exact' });
  }
  const slippageBps = readSlippage(raw.slippageBps);
  const token = await tokens.get(raw.token, 'token');
  const pairSide = (side === 'buy') === (exact === 'in');
  const decimals = pairSide ? token.pair.decimals : token.decimals;
  const amount = parseDecimalAmount(raw.amount, decimals, 'amount');
  return { token, side: side as Side, exact: exact as Exact, amount, slippageBps };
}

function readSlippage(value: unknown): number {
  if (value === undefined) return LIMITS.defaultSlippageBps;
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (
    typeof number !== 'number' ||
    !Number.isInteger(number) ||
    number < LIMITS.minSlippageBps ||
    number > LIMITS.maxSlippageBps
  ) {
    throw new ApiError(
      'INVALID_SLIPPAGE',
      `slippageBps must be a whole number from ${LIMITS.minSlippageBps} to ${LIMITS.maxSlippageBps}, not ${JSON.stringify(value)}`,
      { field: 'slippageBps' },
    );
  }
  return number;
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
    siteFee: { ...amount(token.pair, quote.siteFee), bps: quote.siteFeeBps },
    priceImpactPct: quote.priceImpactPct,
  };
}

const AmountSchema = z.object({ amount: z.string(), wei: z.string(), symbol: z.string() });

export const TradeQuoteSchema = z
  .object({
    token: z.object({
      address: AddressSchema,
      symbol: z.string(),
      pool: AddressSchema,
      feeTier: z.number().int(),
      pair: z.object({ address: AddressSchema, decimals: z.number().int(), symbol: z.string() }),
    }),
    side: z.enum(['buy', 'sell']),
    exact: z.enum(['in', 'out']),
    slippageBps: z.number().int(),
    pay: AmountSchema.openapi({ description: 'what is spent (for a buy, site fee included)' }),
    receive: AmountSchema.openapi({
      description: 'what comes back at the current price (for a sell, after the site fee)',
    }),
    limit: z.object({ amount: z.string(), wei: z.string(), kind: z.enum(['minReceive', 'maxPay']) }).openapi({
      description: 'the floor (exact in) or ceiling (exact out) written into the trade, from slippageBps',
    }),
    siteFee: AmountSchema.extend({ bps: z.number().int() }).openapi({
      description: 'taken in the pair currency; the referrer cut is paid out of it',
    }),
    priceImpactPct: z.number().openapi({
      description:
        "Per cent by which the pool fills worse than its mid price before the trade: the execution price of the pool leg (pair per token, the pool's LP fee and the site fee excluded) against that mid price. About 0 for trades too small to move the price.",
    }),
  })
  .openapi('TradeQuote');
