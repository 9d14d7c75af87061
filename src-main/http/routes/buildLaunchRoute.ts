import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { SHAPE_PRESETS } from '../../core/launch/shapes';
import type { LaunchService } from '../../services/launchService';
import type { AppEnv } from '../env';
import { AddressSchema, errorResponses } from '../schemas';

const AmountSchema = z.object({ amount: z.string(), wei: z.string() });

const LaunchBodySchema = z.object({
  wallet: z.string(),
  name: z.string().openapi({ description: 'up to 64 bytes' }),
  symbol: z.string().openapi({ description: 'up to 32 bytes' }),
  marketCapUsd: z.string().optional().openapi({ description: 'opening market cap in dollars (one of the two caps)' }),
  marketCapPair: z.string().optional().openapi({ description: 'opening market cap in the pair currency' }),
  supply: z.string().optional().openapi({ description: 'whole tokens, 1 to 1000000000000; default 1000000000' }),
  pair: z.string().optional().openapi({ description: 'BNB (default), a listed symbol, or a BEP20 address' }),
  firstBuy: z.string().optional().openapi({ description: 'a buy in the pair currency, inside the launch transaction' }),
  firstBuyTo: z.array(z.object({ wallet: z.string(), pct: z.number() })).optional(),
  slippagePct: z.number().optional().openapi({ description: 'first-buy slippage, 0.5 to 50; default 5' }),
  image: z
    .string()
    .optional()
    .openapi({ description: 'https:// link (or a URL from POST /media/image) to a PNG, JPG, GIF or WebP' }),
  description: z.string().optional(),
  website: z.string().optional(),
  x: z.string().optional(),
  telegram: z.string().optional(),
  metadataURI: z.string().optional().openapi({ description: 'https:// or ipfs://; not with image or the details' }),
  burnPct: z.number().optional().openapi({ description: '0, 1 to 99 (two decimals), or 100' }),
  royaltyTo: z.string().optional(),
  shape: z
    .union([
      z.enum(['flat', 'stepped', 'steep']),
      z.array(z.object({ fromPct: z.number(), toPct: z.number(), bps: z.number().int() })),
    ])
    .optional()
    .openapi({
      description: `How the supply is laid across prices, over 46,000 ticks (about 100x) above the opening price; the last range always runs to the top price. Presets: ${Object.entries(
        SHAPE_PRESETS,
      )
        .map(([name, ranges]) => `${name} = ${ranges.map((r) => `${r.fromPct}-${r.toPct}%: ${r.bps} bps`).join(', ')}`)
        .join('; ')}.`,
    }),
  feeTier: z.number().int().optional().openapi({ description: '100, 500, 2500 or 10000 (default)' }),
});

const UnsignedTxSchema = z.object({
  chainId: z.number().int(),
  to: AddressSchema,
  data: z.string(),
  value: z.string(),
  gas: z.string().optional(),
});

const LaunchBuildSchema = z
  .object({
    wallet: AddressSchema,
    token: AddressSchema.openapi({ description: "the new token's address, known before sending" }),
    name: z.string(),
    symbol: z.string(),
    supply: AmountSchema,
    pair: z.object({
      address: AddressSchema,
      decimals: z.number().int(),
      symbol: z.string(),
      priced: z.boolean(),
      note: z.string().optional(),
    }),
    opening: z.object({
      tick: z.number().int().openapi({ description: 'extra: the pool tick the launch opens at' }),
      marketCapPair: z.number(),
      marketCapUsd: z.number().nullable(),
      driftFromAskedPct: z.number().openapi({
        description: 'the tick actually used opens at or above the asked cap: ticks are about 2% apart on the 1% tier',
      }),
    }),
    feeTier: z.number().int(),
    firstBuy: z.object({ spend: AmountSchema, minTokens: AmountSchema }).nullable(),
    launchFee: AmountSchema,
    creatorFeeRecipient: AddressSchema,
    royalty: z.object({
      kind: z.enum(['keep', 'split', 'holders']),
      burnPct: z.number(),
      to: AddressSchema,
      explain: z.string(),
    }),
    shape: z.string(),
    firstBuyTo: z.array(z.object({ wallet: AddressSchema, pct: z.number() })).nullable(),
    salt: z.string(),
    metadata: z.object({ uri: z.string() }).passthrough().nullable(),
    requires: z.array(z.object({ step: z.string(), explain: z.string(), tx: UnsignedTxSchema })),
    tx: UnsignedTxSchema,
    simulation: z.object({ ran: z.boolean(), ok: z.boolean() }),
    cost: z.object({ gasPriceWei: z.string(), maxWei: z.string(), max: z.string() }),
    explain: z.string(),
  })
  .openapi('LaunchBuild');

const route = createRoute({
  method: 'post',
  path: '/build/launch',
  summary: 'Build an unsigned launch, simulated from the wallet',
  request: { body: { content: { 'application/json': { schema: LaunchBodySchema } }, required: true } },
  responses: {
    200: { description: 'Launch build', content: { 'application/json': { schema: LaunchBuildSchema } } },
    ...errorResponses(400, 413, 415, 422, 429, 503),
  },
});

export function buildLaunchRoute(app: OpenAPIHono<AppEnv>, launches: LaunchService): void {
  // Documented, but read by our own body rules rather than the validator, so every field gets the spec's code.
  app.openAPIRegistry.registerPath(route);
  app.post('/build/launch', async (c) => c.json(await launches.build(c.get('body')), 200));
}
