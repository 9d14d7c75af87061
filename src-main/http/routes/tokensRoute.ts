import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { TokenRegistry } from '../../services/tokenRegistry';
import type { IndexStore } from '../../store/indexStore';
import type { AppEnv } from '../env';
import { AddressSchema, errorResponses } from '../schemas';
import { imageLink } from './launchesRoute';

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
    image: z
      .string()
      .nullable()
      .openapi({ description: "logo link (served here); null until found in the launch's metadata, or none" }),
    launchedAt: z
      .string()
      .nullable()
      .openapi({ description: 'ISO 8601, the block time of the launch; null until the indexer has its block' }),
    details: z
      .object({
        description: z.string().optional(),
        website: z.string().optional().openapi({ description: 'an https:// link' }),
        x: z.string().optional().openapi({ description: 'an https://x.com/… link' }),
        telegram: z.string().optional().openapi({ description: 'an https://t.me/… link' }),
      })
      .nullable()
      .openapi({
        description:
          "what the launch's metadata says about the token, each only when present and valid; null until the " +
          'metadata is read, or when it could not be',
      }),
  })
  .openapi('Token');

const route = createRoute({
  method: 'get',
  path: '/tokens/{address}',
  summary: "A launched token: its pool, creator and pair currency, its logo and its metadata's details",
  request: { params: z.object({ address: z.string().openapi({ description: 'token address' }) }) },
  responses: {
    200: { description: 'Token', content: { 'application/json': { schema: TokenSchema } } },
    ...errorResponses(400, 503),
  },
});

export function tokensRoute(app: OpenAPIHono<AppEnv>, tokens: TokenRegistry, index: IndexStore): void {
  app.openapi(route, async (c) => {
    const facts = await tokens.get(c.req.param('address'), 'address');
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
