import { z } from 'zod';
import { AddressSchema, WeiSchema } from './common';
import { addressParam, choiceParam } from './requestRules';

/** GET /wallets/{address}/positions' path. */
export const WalletParamsSchema = z.object({ address: addressParam('address').meta({ description: 'the wallet' }) });

/** GET /wallets/{address}/positions' query. */
export const PositionsQuerySchema = z.object({
  closed: choiceParam(['true', 'false'], {
    code: 'INVALID_BODY',
    field: 'closed',
    message: 'closed is not valid: closed must be true or false',
    fix: 'Send closed=true to list sold-out tokens too, or leave it out.',
    rank: 1,
  })
    .optional()
    .transform((closed) => closed === 'true')
    .meta({ description: 'true: also the tokens the wallet traded here and no longer holds (their realized profit)' }),
});

/** Wei that may be below zero: a profit or a count of tokens that left without a sale. */
const SignedWeiSchema = z
  .string()
  .regex(/^-?\d+$/)
  .meta({ description: 'wei, digits with a minus sign when below zero' });

const usd = z.string().nullable().meta({
  description:
    "in dollars at the pair currency's dollar price now: a decimal string of at most 6 places, rounded toward zero; null when the pair has no dollar price",
});

const PairSchema = z.object({ address: AddressSchema, symbol: z.string(), decimals: z.number().int() });

/** A pair amount with its dollar value. */
const PairAmountSchema = z.object({ amount: z.string(), wei: WeiSchema, usd }).meta({ id: 'PairAmount' });
/** The same, for a figure that may be below zero (a loss). */
const SignedPairAmountSchema = z
  .object({ amount: z.string(), wei: SignedWeiSchema, usd })
  .meta({ id: 'SignedPairAmount' });

/** A launched token where an answer names it: address, symbol, name, decimals, pool and pair. */
export const TokenRefSchema = z.object({
  address: AddressSchema,
  symbol: z.string(),
  name: z.string(),
  decimals: z.number().int(),
  pool: AddressSchema,
  pair: PairSchema,
});

export const PositionSchema = z
  .object({
    token: TokenRefSchema.extend({
      image: z
        .string()
        .nullable()
        .meta({ description: "the launch's logo (as GET /tokens/{address} gives it); null without one" }),
    }),
    balance: z
      .object({ amount: z.string(), wei: WeiSchema })
      .meta({ description: 'tokens held now, read from the chain' }),
    price: PairAmountSchema.meta({ description: "one whole token at the pool's price now, in the pair" }),
    value: PairAmountSchema.meta({ description: "the balance at the pool's price now (before fees and price impact)" }),
    cost: PairAmountSchema.meta({ description: 'what the tokens held cost, by average cost (see the description)' }),
    averageCost: PairAmountSchema.nullable().meta({
      description: 'cost per whole token held (cost ÷ balance, rounded down); null when nothing is held',
    }),
    realized: SignedPairAmountSchema.meta({
      description: 'profit taken by sales: what each got after the site fee, less the cost of what it sold',
    }),
    unrealized: SignedPairAmountSchema.meta({ description: 'value − cost' }),
    trades: z.object({
      buys: z.number().int().meta({ description: "buys, a launch's first buy counted as its creator's" }),
      sells: z.number().int(),
      spent: PairAmountSchema.meta({ description: 'paid by the buys, site fees included' }),
      received: PairAmountSchema.meta({ description: 'received from the sales, after site fees' }),
    }),
    untracked: z.object({ amount: z.string(), wei: SignedWeiSchema }).meta({
      description:
        'balance − what the trades here leave: above zero, tokens that came another way (a transfer, a share of ' +
        "someone's first buy), held at no cost; below zero, tokens that left without a sale here (taking their " +
        'share of the cost with them, realizing nothing)',
    }),
    change24h: z
      .object({
        pct: z.number().nullable().meta({
          description:
            'the pool price now against the price at the start of the last 24 h, in percent (to a hundredth of a basis point, toward zero); null when the token has no trade to compare with',
        }),
        fromPriceWei: WeiSchema.nullable().meta({
          description:
            "the price compared with: pair wei per whole token at the last trade before the 24 h (or else the window's first trade), that trade's own average price",
        }),
        complete: z.boolean().meta({
          description:
            "false when the token's latest 100 trades all fall within the 24 h: the change then starts from the oldest of them",
        }),
      })
      .meta({ description: "an addition: the token's 24 h change, worked out as the token pages work it out" }),
  })
  .meta({ id: 'Position' });

export const PositionsSchema = z
  .object({
    wallet: AddressSchema,
    positions: z.array(PositionSchema),
    totals: z
      .object({
        value: z.string(),
        cost: z.string(),
        realized: z.string(),
        unrealized: z.string(),
        unpriced: z.array(AddressSchema).meta({ description: 'tokens left out of the totals: no dollar price' }),
        pairs: z
          .array(
            z.object({
              pair: PairSchema,
              positions: z.number().int().meta({ description: 'positions listed in this pair currency' }),
              value: PairAmountSchema,
              cost: PairAmountSchema,
              realized: SignedPairAmountSchema,
              unrealized: SignedPairAmountSchema,
            }),
          )
          .meta({
            description:
              "an addition: the positions listed summed per pair currency, to the wei (each `usd` the sum of the rows' `usd`, so the dollar totals above are the sum of these where priced); ordered by pair address",
          }),
      })
      .meta({ description: 'the positions listed, summed in dollars (decimal strings, at most 6 places)' }),
  })
  .meta({ id: 'Positions' });
