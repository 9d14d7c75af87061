import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { LaunchRequestSchema } from '../../../src-shared/schema/launch';
import type { LaunchService } from '../../services/launchService';
import type { AppEnv } from '../env';
import { AddressSchema, errorResponses } from '../schemas';

const AmountSchema = z.object({ amount: z.string(), wei: z.string() });

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
  request: { body: { content: { 'application/json': { schema: LaunchRequestSchema } }, required: true } },
  responses: {
    200: { description: 'Launch build', content: { 'application/json': { schema: LaunchBuildSchema } } },
    ...errorResponses(400, 413, 415, 422, 429, 503),
  },
});

export function buildLaunchRoute(app: OpenAPIHono<AppEnv>, launches: LaunchService): void {
  // Documented from the launch schema; the service parses with the same schema, after its own first check (is a
  // factory deployed), so each broken rule answers the spec's code and field in the spec's order.
  app.openAPIRegistry.registerPath(route);
  app.post('/build/launch', async (c) => c.json(await launches.build(c.get('body')), 200));
}
