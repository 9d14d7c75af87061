import { z } from 'zod';
import { AddressSchema } from './common';
import { addressParam, choiceParam, decimalParam, refuse } from './requestRules';

/**
 * An amount's dollar value (an addition to the spec): a decimal string of at most 6 places, the exact value rounded
 * down; null when the pair has no dollar price.
 */
export const UsdValueSchema = z
  .string()
  .nullable()
  .meta({
    description:
      "an addition: the amount's worth in dollars, a decimal string of at most 6 places (millionths of a dollar), " +
      'the exact value rounded down; the pair currency at its dollar price (BNB by the WBNB/USDT pool, USDT at par), ' +
      "the token at the pool's price before the trade times that; null when the pair has no dollar price",
    example: '12.34',
  });

/** An amount as the API answers it: decimal in whole units, wei, the currency's symbol, and its dollar value. */
const AmountSchema = z.object({ amount: z.string(), wei: z.string(), symbol: z.string(), usd: UsdValueSchema });

export const TradeSideSchema = z.enum(['buy', 'sell'], { error: 'side must be buy or sell' });
export const ExactSchema = z.enum(['in', 'out'], { error: 'exact must be in or out' });

/** The slippage a trade may be built with, in basis points (`limits` of GET /settings). */
export const TRADE_SLIPPAGE = { minBps: 1, maxBps: 5000, defaultBps: 50 } as const;

const { minBps, maxBps, defaultBps } = TRADE_SLIPPAGE;
const slippageMessage = `slippageBps must be a whole number from ${minBps} to ${maxBps}`;

/**
 * A trade's slippage as a body sends it: a number, or a string of digits read as one; the default when left out.
 */
export const SlippageBpsSchema = z
  .preprocess(
    (value) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value),
    z.number({ error: slippageMessage }).int().min(minBps).max(maxBps),
  )
  .optional()
  .transform((bps) => bps ?? defaultBps)
  .meta({ description: `${minBps} to ${maxBps}, default ${defaultBps}`, default: defaultBps });

/** Whether a string of a query is a slippage the trade takes. */
function isSlippage(text: string): boolean {
  const bps = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  return Number.isInteger(bps) && bps >= minBps && bps <= maxBps;
}

/**
 * GET /quote's query, the one schema of the route (and of its lean twin, src-main/http/leanQuote.ts): every field a
 * string as a query sends it. Checked as the spec orders it: the fields present first, then side, exact and slippageBps,
 * then the token's form and the amount's; whether the token was launched here and the amount fits its currency's
 * decimals is the service's to say, after these.
 */
export const QuoteQuerySchema = z.object({
  token: addressParam('token', { rank: 2 }).meta({ description: 'token address' }),
  side: choiceParam(['buy', 'sell'], {
    code: 'INVALID_SIDE',
    message: 'side is not valid: side must be buy or sell',
    rank: 1,
  }).meta({ description: 'buy (pay the pair currency, get the token) or sell (the reverse)' }),
  amount: decimalParam('amount', 3).meta({ description: 'decimal amount in whole units of the exact side' }),
  exact: choiceParam(['in', 'out'], {
    code: 'INVALID_EXACT',
    message: 'exact is not valid: exact must be in or out',
    rank: 1,
  })
    .optional()
    .transform((exact) => exact ?? 'in')
    .meta({ description: 'in (pay is fixed; the default) or out (receive is fixed)', default: 'in' }),
  slippageBps: z
    .string()
    .check((payload) => {
      if (isSlippage(payload.value)) return;
      refuse(payload, { code: 'INVALID_SLIPPAGE', message: `slippageBps is not valid: ${slippageMessage}`, rank: 1 });
    })
    .transform(Number)
    .optional()
    .transform((bps) => bps ?? defaultBps)
    .meta({
      type: 'integer',
      minimum: minBps,
      maximum: maxBps,
      default: defaultBps,
      description: `${minBps} to ${maxBps}, default ${defaultBps}`,
    }),
});

export type QuoteQuery = z.output<typeof QuoteQuerySchema>;

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
    limit: z
      .object({ amount: z.string(), wei: z.string(), kind: z.enum(['minReceive', 'maxPay']), usd: UsdValueSchema })
      .meta({
        description: 'the floor (exact in) or ceiling (exact out) written into the trade, from slippageBps',
      }),
    siteFee: AmountSchema.omit({ usd: true }).extend({ bps: z.number().int(), usd: UsdValueSchema }).meta({
      description: 'taken in the pair currency; the referrer cut is paid out of it',
    }),
    priceImpactPct: z.number().meta({
      description:
        "Per cent by which the pool fills worse than its mid price before the trade: the execution price of the pool leg (pair per token, the pool's LP fee and the site fee excluded) against that mid price. About 0 for trades too small to move the price.",
    }),
  })
  .meta({ id: 'TradeQuote' });

export type TradeQuote = z.infer<typeof TradeQuoteSchema>;
