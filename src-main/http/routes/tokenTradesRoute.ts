import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { ApiError } from '../../core/errors';
import { formatDecimalAmount } from '../../core/units/decimalAmount';
import type { TokenMarket, TokenMarketState } from '../../services/tokenMarket';
import type { TokenRegistry } from '../../services/tokenRegistry';
import type { IndexedTrade, IndexStore } from '../../store/indexStore';
import type { AppEnv } from '../env';
import { AddressSchema, errorResponses, WeiSchema } from '../schemas';

export const DEFAULT_TRADES = 50;
export const MAX_TRADES = 200;

const TokenTradeSchema = z
  .object({
    tx: z.string().openapi({ description: 'transaction hash' }),
    block: z.number().int(),
    at: z.string().openapi({ description: 'ISO 8601, the block time' }),
    side: z.enum(['buy', 'sell']),
    trader: AddressSchema,
    pairWei: WeiSchema.openapi({ description: 'pair currency paid (buy) or received (sell), site fee included' }),
    tokenWei: WeiSchema.openapi({ description: 'tokens received (buy) or paid (sell)' }),
    feeWei: WeiSchema.openapi({ description: 'the site fee, in the pair currency' }),
    referrer: AddressSchema.nullable().openapi({ description: 'who got the referral cut; null for nobody' }),
    firstBuy: z.boolean().openapi({
      description: "the launch's first buy, made by the factory in the launch transaction for the creator",
    }),
  })
  .openapi('TokenTrade');

const TokenMarketSchema = z
  .object({
    priceWei: WeiSchema.openapi({ description: "pair wei for one whole token at the pool's current price" }),
    marketCap: z
      .object({ amount: z.string(), wei: WeiSchema })
      .openapi({ description: 'price times supply, in the pair currency' }),
    marketCapUsd: z.number().nullable().openapi({ description: 'in dollars; null when the pair has no dollar price' }),
    pair: z.object({ address: AddressSchema, symbol: z.string(), decimals: z.number().int() }),
    supplyWei: WeiSchema.openapi({ description: 'the whole supply (fixed at launch)' }),
  })
  .openapi('TokenMarket');

const TokenTradesSchema = z
  .object({ trades: z.array(TokenTradeSchema), market: TokenMarketSchema })
  .openapi('TokenTrades');

const route = createRoute({
  method: 'get',
  path: '/tokens/{address}/trades',
  summary: "A launched token's latest trades and its market now",
  description:
    "Trades through the router from the local index, newest first, with the launch's first buy (a trade appears once " +
    'the indexer has its block); ' +
    "the market (price, market cap, supply) from the pool's current state.",
  request: {
    params: z.object({ address: z.string().openapi({ description: 'token address' }) }),
    query: z.object({
      limit: z
        .string()
        .optional()
        .openapi({ description: `1 to ${MAX_TRADES}, default ${DEFAULT_TRADES}` }),
    }),
  },
  responses: {
    200: { description: 'Trades and market', content: { 'application/json': { schema: TokenTradesSchema } } },
    ...errorResponses(400, 503),
  },
});

function readLimit(value: string | undefined): number {
  if (value === undefined) return DEFAULT_TRADES;
  const limit = /^\d{1,4}$/.test(value) ? Number(value) : Number.NaN;
  if (!(limit >= 1 && limit <= MAX_TRADES)) {
    throw new ApiError(
      'INVALID_BODY',
      `limit must be a whole number from 1 to ${MAX_TRADES}, not "${value.slice(0, 40)}"`,
      {
        field: 'limit',
        fix: `Send limit from 1 to ${MAX_TRADES}, or leave it out for ${DEFAULT_TRADES}.`,
      },
    );
  }
  return limit;
}

function tradeJson(trade: IndexedTrade) {
  return {
    tx: trade.txHash,
    block: trade.block,
    at: new Date(trade.timestamp * 1000).toISOString(),
    side: trade.isBuy ? ('buy' as const) : ('sell' as const),
    trader: trade.trader,
    pairWei: trade.pairAmount.toString(),
    tokenWei: trade.tokenAmount.toString(),
    feeWei: trade.fee.toString(),
    referrer: trade.referrer,
    firstBuy: trade.firstBuy === true,
  };
}

function marketJson(market: TokenMarketState) {
  const { pair } = market;
  return {
    priceWei: market.priceWei.toString(),
    marketCap: {
      amount: formatDecimalAmount(market.marketCapWei, pair.decimals),
      wei: market.marketCapWei.toString(),
    },
    marketCapUsd: market.marketCapUsd,
    pair: { address: pair.address, symbol: pair.symbol, decimals: pair.decimals },
    supplyWei: market.supplyWei.toString(),
  };
}

/** GET /tokens/{address}/trades: the token page's trades table and chart, and the list's market caps, in one read. */
export function tokenTradesRoute(
  app: OpenAPIHono<AppEnv>,
  tokens: TokenRegistry,
  index: IndexStore,
  market: TokenMarket,
): void {
  app.openapi(route, async (c) => {
    const facts = await tokens.get(c.req.param('address'), 'address');
    const limit = readLimit(c.req.query('limit'));
    const state = await market.of(facts);
    return c.json({ trades: index.tradesOf(facts.address, limit).map(tradeJson), market: marketJson(state) }, 200);
  });
}
