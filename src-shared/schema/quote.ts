import { z } from 'zod';
import { AddressSchema } from './common';

/** An amount as the API answers it: decimal in whole units, wei, and the currency's symbol. */
const AmountSchema = z.object({ amount: z.string(), wei: z.string(), symbol: z.string() });

export const TradeSideSchema = z.enum(['buy', 'sell'], { error: 'side must be buy or sell' });
export const ExactSchema = z.enum(['in', 'out'], { error: 'exact must be in or out' });

/** The slippage limits a service takes (`limits` of GET /settings, and the smallest it allows). */
export interface SlippageLimits {
  minSlippageBps: number;
  maxSlippageBps: number;
  defaultSlippageBps: number;
}

/**
 * A trade's terms as a quote or a build asks for them, checked in the order the spec lists them: side, exact (in when
 * left out) and slippageBps (the default when left out; a query's string of digits is read as the number). The
 * token and the amount are read after these, by the service: the amount's decimals are those of the exact side.
 */
export function tradeTermsSchema(limits: SlippageLimits) {
  const { minSlippageBps: min, maxSlippageBps: max, defaultSlippageBps } = limits;
  return z.object({
    side: TradeSideSchema,
    exact: ExactSchema.nullish().transform((exact) => exact ?? 'in'),
    slippageBps: z
      .preprocess(
        (value) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value),
        z
          .number({ error: `slippageBps must be a whole number from ${min} to ${max}` })
          .int()
          .min(min)
          .max(max),
      )
      .optional()
      .transform((bps) => bps ?? defaultSlippageBps),
  });
}

/** GET /quote's query. */
export const QuoteQuerySchema = z.object({
  token: z.string().meta({ description: 'token address' }),
  side: z.string().meta({ description: 'buy or sell' }),
  amount: z.string().meta({ description: 'decimal amount in whole units of the exact side' }),
  exact: z.string().optional().meta({ description: 'in (default) or out' }),
  slippageBps: z.string().optional().meta({ description: '1 to 5000, default 50' }),
});

/** The spec's Trade fields shared by quotes and builds (GET /quote answers these alone). */
export const TradeQuoteSchema = z
  .object({
    token: z.object({
      address: AddressSchema,
      symbol: z.string(),
      pool: AddressSchema,
      feeTier: z.number().int(),
      pair: z.object({ address: AddressSchema, decimals: z.number().int(), symbol: z.string() }),
    }),
    side: TradeSideSchema,
    exact: ExactSchema,
    slippageBps: z.number().int(),
    pay: AmountSchema.meta({ description: 'what is spent (for a buy, site fee included)' }),
    receive: AmountSchema.meta({
      description: 'what comes back at the current price (for a sell, after the site fee)',
    }),
    limit: z.object({ amount: z.string(), wei: z.string(), kind: z.enum(['minReceive', 'maxPay']) }).meta({
      description: 'the floor (exact in) or ceiling (exact out) written into the trade, from slippageBps',
    }),
    siteFee: AmountSchema.extend({ bps: z.number().int() }).meta({
      description: 'taken in the pair currency; the referrer cut is paid out of it',
    }),
    priceImpactPct: z.number().meta({
      description:
        "Per cent by which the pool fills worse than its mid price before the trade: the execution price of the pool leg (pair per token, the pool's LP fee and the site fee excluded) against that mid price. About 0 for trades too small to move the price.",
    }),
  })
  .meta({ id: 'TradeQuote' });

export type TradeQuote = z.infer<typeof TradeQuoteSchema>;
