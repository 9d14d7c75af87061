import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { TokenParamsSchema, TokenSchema } from '../../../src-shared/schema/tokens';
import type { TokenRegistry } from '../../services/tokenRegistry';
import type { IndexStore } from '../../store/indexStore';
import type { AppEnv } from '../env';
import { errorResponses } from '../schemas';
import { imageLink } from './launchesRoute';

const route = createRoute({
  method: 'get',
  path: '/tokens/{address}',
  summary: "A launched token: its pool, creator and pair currency, its logo and its metadata's details",
  request: { params: TokenParamsSchema },
  responses: {
    200: { description: 'Token', content: { 'application/json': { schema: TokenSchema } } },
    ...errorResponses(400, 503),
  },
});

export function tokensRoute(app: OpenAPIHono<AppEnv>, tokens: TokenRegistry, index: IndexStore): void {
  app.openapi(route, async (c) => {
    const facts = await tokens.get(c.req.valid('param').address, 'address');
    const launch = index.launch(facts.address);
    return c.json(
      {
        address: facts.address,
        pool: facts.pool,
        creator: facts.creator,
        symbol: facts.symbol,
        name: facts.name,
        fee: facts.feeTier,
        decimals: facts.decimals,
        quote: facts.pair,
        quoteIsBnb: facts.quoteIsBnb,
        image: imageLink(launch?.image ?? null, new URL(c.req.url).origin),
        launchedAt: launch ? new Date(launch.timestamp * 1000).toISOString() : null,
        details: launch?.details ?? null,
      },
      200,
    );
  });
}
