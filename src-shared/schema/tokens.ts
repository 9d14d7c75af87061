import { z } from 'zod';
import { AddressSchema, WeiSchema } from './common';
import { addressParam, pageSizeParam } from './requestRules';

export const DEFAULT_TRADES = 50;
/** The largest holders GET /tokens/{address} lists. */
export const TOP_HOLDERS = 20;

export const HOLDER_LABELS = ['creator', 'pool', 'dead', 'firstBuy', 'factory'] as const;

/** A holder in GET /tokens/{address}'s `holders.top`. */
export const TokenHolderSchema = z
  .object({
    address: AddressSchema,
    balance: z.object({ amount: z.string(), wei: WeiSchema }).meta({ description: 'tokens held' }),
    sharePct: z.number().meta({ description: 'percent of the supply, to 4 decimals, rounded down' }),
    labels: z.array(z.enum(HOLDER_LABELS)).meta({
      description:
        "what the address is to the launch: `creator`; `pool`, the token's pool, holding the laid supply not yet " +
        "bought; `dead`, 0x…dEaD or the zero address (burned); `firstBuy`, a recipient of the launch's first buy " +
        "(the creator where the launch named none); `factory`, the launch factory (it keeps the launch's positions " +
        'locked and passes collected fees through). Empty for anyone else',
    }),
  })
  .meta({ id: 'TokenHolder' });

/** GET /tokens/{address}'s `holders`. */
export const TokenHoldersSchema = z
  .object({
    count: z.number().int().meta({ description: 'addresses holding some of the token' }),
    top: z.array(TokenHolderSchema).meta({ description: `the ${TOP_HOLDERS} largest holders, largest first` }),
    block: z.number().int().meta({ description: 'the indexed block the balances are at' }),
  })
  .meta({ id: 'TokenHolders' });

export const MAX_TRADES = 200;

/** The path of /tokens/{address} and /tokens/{address}/trades. */
export const TokenParamsSchema = z.object({ address: addressParam('address').meta({ description: 'token address' }) });

/** GET /tokens/{address}. */
export const TokenSchema = z
  .object({
    address: AddressSchema,
    pool: AddressSchema,
    creator: AddressSchema,
    symbol: z.string(),
    name: z.string(),
    fee: z.number().int().meta({ description: 'pool fee tier, 10000 = 1%' }),
    decimals: z.number().int(),
    quote: z.object({ address: AddressSchema, decimals: z.number().int(), symbol: z.string() }).meta({
      description: 'the pair currency (for BNB, the wrapped-BNB contract, traded natively)',
    }),
    quoteIsBnb: z.boolean(),
    image: z
      .string()
      .nullable()
      .meta({ description: "logo link (served here); null until found in the launch's metadata, or none" }),
    launchedAt: z
      .string()
      .nullable()
      .meta({ description: 'ISO 8601, the block time of the launch; null until the indexer has its block' }),
    details: z
      .object({
        description: z.string().optional(),
        website: z.string().optional().meta({ description: 'an https:// link' }),
        x: z.string().optional().meta({ description: 'an https://x.com/… link' }),
        telegram: z.string().optional().meta({ description: 'an https://t.me/… link' }),
      })
      .nullable()
      .meta({
        description:
          "what the launch's metadata says about the token, each only when present and valid; null until the " +
          'metadata is read, or when it could not be',
      }),
    holders: TokenHoldersSchema.nullable().meta({
      description:
        'an addition: who holds the token, from its Transfer logs as indexed (confirmed blocks, reorganizations ' +
        'undone); null until the indexer has the launch',
    }),
  })
  .meta({ id: 'Token' });

/** GET /tokens/{address}/trades' query. */
export const TokenTradesQuerySchema = z.object({
  limit: pageSizeParam(MAX_TRADES, DEFAULT_TRADES),
  wallet: addressParam('wallet').optional().meta({
    description:
      "an addition: only this wallet's trades of the token (a launch's first buy is its creator's), same order and limit",
  }),
});

export const TokenTradeSchema = z
  .object({
    tx: z.string().meta({ description: 'transaction hash' }),
    block: z.number().int(),
    at: z.string().meta({ description: 'ISO 8601, the block time' }),
    side: z.enum(['buy', 'sell']),
    trader: AddressSchema,
    pairWei: WeiSchema.meta({ description: 'pair currency paid (buy) or received (sell), site fee included' }),
    tokenWei: WeiSchema.meta({ description: 'tokens received (buy) or paid (sell)' }),
    feeWei: WeiSchema.meta({ description: 'the site fee, in the pair currency' }),
    referrer: AddressSchema.nullable().meta({ description: 'who got the referral cut; null for nobody' }),
    firstBuy: z.boolean().meta({
      description: "the launch's first buy, made by the factory in the launch transaction for the creator",
    }),
  })
  .meta({ id: 'TokenTrade' });

export const TokenMarketSchema = z
  .object({
    priceWei: WeiSchema.meta({ description: "pair wei for one whole token at the pool's current price" }),
    marketCap: z
      .object({ amount: z.string(), wei: WeiSchema })
      .meta({ description: 'price times supply, in the pair currency' }),
    marketCapUsd: z.number().nullable().meta({ description: 'in dollars; null when the pair has no dollar price' }),
    pair: z.object({ address: AddressSchema, symbol: z.string(), decimals: z.number().int() }),
    supplyWei: WeiSchema.meta({ description: 'the whole supply (fixed at launch)' }),
  })
  .meta({ id: 'TokenMarket' });

/** GET /tokens/{address}/trades. */
export const TokenTradesSchema = z
  .object({ trades: z.array(TokenTradeSchema), market: TokenMarketSchema })
  .meta({ id: 'TokenTrades' });

/** GET /balances' query. */
export const BalancesQuerySchema = z.object({
  wallet: addressParam('wallet').meta({ description: 'wallet address' }),
  token: addressParam('token').meta({ description: 'launched token address' }),
});

/** GET /balances. */
export const BalancesSchema = z
  .object({
    wallet: AddressSchema,
    bnbWei: WeiSchema.meta({ description: 'BNB, which also pays for gas' }),
    token: z.object({ address: AddressSchema, symbol: z.string(), decimals: z.number().int(), wei: WeiSchema }),
    pair: z
      .object({
        address: AddressSchema,
        symbol: z.string(),
        decimals: z.number().int(),
        wei: WeiSchema,
        native: z.boolean().meta({ description: 'true for BNB: wei is the BNB balance, paid natively' }),
      })
      .meta({ description: "the token's pair currency (for BNB the wrapped-BNB contract's address)" }),
  })
  .meta({ id: 'Balances' });
