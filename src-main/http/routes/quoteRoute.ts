import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { type QuoteQuery, QuoteQuerySchema, TradeQuoteSchema } from '../../../src-shared/schema/quote';
import type { QuoteService } from '../../services/quoteService';
import type { TokenRegistry } from '../../services/tokenRegistry';
import type { AppEnv } from '../env';
import { errorResponses } from '../schemas';
import { tradeJson, tradeRequest } from '../tradeInput';

const route = createRoute({
  method: 'get',
  path: '/quote',
  summary: 'What a trade gets right now (sends nothing)',
  request: { query: QuoteQuerySchema },
  responses: {
    200: { description: 'Trade (quote fields)', content: { 'application/json': { schema: TradeQuoteSchema } } },
    ...errorResponses(400, 422, 429, 503),
  },
});

/**
 * GET /quote's answer to a query read by QuoteQuerySchema: the trade quoted on the pool's current state. Shared by the
 * route and the lean route in front of the app (leanQuote), so both answer alike.
 */
export async function answerQuote(
  query: QuoteQuery,
  tokens: TokenRegistry,
  quotes: QuoteService,
): Promise<ReturnType<typeof tradeJson>> {
  return tradeJson(await quotes.quote(await tradeRequest(query, tokens)));
}

export function quoteRoute(app: OpenAPIHono<AppEnv>, tokens: TokenRegistry, quotes: QuoteService): void {
  app.openapi(route, async (c) => c.json(await answerQuote(c.req.valid('query'), tokens, quotes), 200));
}
