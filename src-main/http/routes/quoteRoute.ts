import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { QuoteQuerySchema, TradeQuoteSchema } from '../../../src-shared/schema/quote';
import type { QuoteService } from '../../services/quoteService';
import type { TokenRegistry } from '../../services/tokenRegistry';
import type { AppEnv } from '../env';
import { errorResponses } from '../schemas';
import { readTradeInput, tradeJson } from '../tradeInput';

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

export function quoteRoute(app: OpenAPIHono<AppEnv>, tokens: TokenRegistry, quotes: QuoteService): void {
  app.openapi(route, async (c) => {
    const input = await readTradeInput(
      {
        token: c.req.query('token'),
        side: c.req.query('side'),
        amount: c.req.query('amount'),
        exact: c.req.query('exact'),
        slippageBps: c.req.query('slippageBps'),
      },
      tokens,
    );
    return c.json(tradeJson(await quotes.quote(input)), 200);
  });
}
