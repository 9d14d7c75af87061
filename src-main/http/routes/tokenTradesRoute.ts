import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { TokenParamsSchema, TokenTradesQuerySchema, TokenTradesSchema } from '../../../src-shared/schema/tokens';
import { formatDecimalAmount } from '../../core/units/decimalAmount';
import type { TokenMarket, TokenMarketState } from '../../services/tokenMarket';
import type { TokenRegistry } from '../../services/tokenRegistry';
import type { IndexedTrade, IndexStore } from '../../store/indexStore';
import type { AppEnv } from '../env';
import { errorResponses } from '../schemas';

const route = createRoute({
  method: 'get',
  path: '/tokens/{address}/trades',
  summary: "A launched token's latest trades and its market now",
  description:
    "Trades through the router from the local index, newest first, with the launch's first buy (a trade appears once " +
    "the indexer has its block); `wallet` (an addition) keeps only that wallet's trades, by the same order and limit; " +
    "the market (price, market cap, supply) from the pool's current state.",
  request: { params: TokenParamsSchema, query: TokenTradesQuerySchema },
  responses: {
    200: { description: 'Trades and market', content: { 'application/json': { schema: TokenTradesSchema } } },
    ...errorResponses(400, 503),
  },
});

/** A GET /tokens/{address}/trades item; with its token, the data of the event stream's trade events. */
export function tokenTradeItem(trade: IndexedTrade) {
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
    const { limit, wallet } = c.req.valid('query');
    const facts = await tokens.get(c.req.valid('param').address, 'address');
    const state = await market.of(facts);
    const trades = index.tradesOf(facts.address, limit, wallet).map(tokenTradeItem);
    return c.json({ trades, market: marketJson(state) }, 200);
  });
}
