import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { ChainContext } from '../../chain/connectChain';
import type { Indexer } from '../../services/indexer';
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
            .object({ network: z.string(), chainId: z.number().int(), indexer: IndexerStatusSchema })
            .openapi('Status'),
        },
      },
    },
  },
});

export function statusRoute(app: OpenAPIHono<AppEnv>, chain: ChainContext, indexer: Indexer): void {
  app.openapi(route, (c) => c.json({ network: chain.network, chainId: chain.chainId, indexer: indexer.status() }, 200));
}
