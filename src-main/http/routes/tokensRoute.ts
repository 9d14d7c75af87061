import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { TokenRegistry } from '../../services/tokenRegistry';
import type { AppEnv } from '../env';
import { AddressSchema, errorResponses } from '../schemas';

export const TokenSchema = z
  .object({
    address: AddressSchema,
    pool: AddressSchema,
    creator: AddressSchema,
    symbol: z.string(),
    name: z.string(),
    fee: z.number().int().openapi({ description: 'pool fee tier, 10000 = 1%' }),
    decimals: z.number().int(),
    quote: z.object({ address: AddressSchema, decimals: z.number().int(), symbol: z.string() }).openapi({
      description: 'the pair currency (for BNB, the wrapped-BNB contract, traded natively)',
    }),
    quoteIsBnb: z.boolean(),
  })
  .openapi('Token');

const route = createRoute({
  method: 'get',
  path: '/tokens/{address}',
  summary: 'A launched token: its pool, creator and pair currency',
  request: { params: z.object({ address: z.string().openapi({ description: 'token address' }) }) },
  responses: {
    200: { description: 'Token', content: { 'application/json': { schema: TokenSchema } } },
    ...errorResponses(400, 503),
  },
});

export function tokensRoute(app: OpenAPIHono<AppEnv>, tokens: TokenRegistry): void {
  app.openapi(route, async (c) => {
    const facts = await tokens.get(c.req.param('address'), 'address');
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
      },
      200,
    );
  });
}
