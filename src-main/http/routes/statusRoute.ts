import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { ChainContext } from '../../chain/connectChain';
import type { Indexer } from '../../services/indexer';
import type { LifetimeWeeks } from '../../services/lifetimeWeeks';
import type { AppEnv } from '../env';

const IndexerStatusSchema = z
  .object({
    state: z.enum(['starting', 'backfilling', 'following', 'retrying', 'stopped']).openapi({
      description:
        'backfilling: more than one batch behind the chain; following: keeping up; retrying: the last read failed',
    }),
    fromBlock: z.number().int().openapi({ description: "the contracts' deploy block, where indexing starts" }),
    indexedBlock: z.number().int().openapi({ description: 'every event up to and including this block is served' }),
    chainHead: z.number().int().nullable(),
    confirmations: z.number().int(),
    blocksDone: z.number().int().openapi({ description: 'blocks indexed since the service started' }),
    blocksLeft: z.number().int().openapi({ description: 'confirmed blocks not indexed yet' }),
    blocksPerSecond: z.number().int(),
    eventsPerSecond: z.number().int(),
    range: z.number().int().openapi({ description: 'block range of the next eth_getLogs (adapts to the RPC)' }),
    reorgs: z.number().int().openapi({ description: 'reorganizations rolled back since the service started' }),
    stored: z.object({
      launches: z.number().int(),
      trades: z.number().int(),
      bindings: z.number().int(),
      collections: z.number().int(),
    }),
    lastError: z.object({ message: z.string(), at: z.string() }).nullable(),
  })
  .openapi('IndexerStatus');

const route = createRoute({
  method: 'get',
  path: '/status',
  summary: "The service's own state: the network and how far the launch indexer got",
  responses: {
    200: {
      description: 'Status',
      content: {
        'application/json': {
          schema: z
            .object({
              network: z.string(),
              chainId: z.number().int(),
              indexer: IndexerStatusSchema,
              referralWeeks: z.object({
                lastClosedWeek: z.number().int().nullable(),
                awaitingOperator: z
                  .array(z.object({ week: z.number().int(), to: z.string(), value: z.string(), data: z.string() }))
                  .openapi({
                    description:
                      "testnet and mainnet: each closed week's postRoot transaction, for the vault's owner to sign and send with the week's funds",
                  }),
              }),
            })
            .openapi('Status'),
        },
      },
    },
  },
});

export function statusRoute(
  app: OpenAPIHono<AppEnv>,
  chain: ChainContext,
  indexer: Indexer,
  weeks: LifetimeWeeks,
): void {
  app.openapi(route, (c) =>
    c.json(
      { network: chain.network, chainId: chain.chainId, indexer: indexer.status(), referralWeeks: weeks.status() },
      200,
    ),
  );
}
