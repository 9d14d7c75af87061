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
    confirmation: z
      .object({
        by: z.enum(['finalized', 'blocks']).openapi({
          description:
            "finalized: the node's finalized block (BSC's fast finality) is what makes a block confirmed; blocks: `confirmations` blocks on top (also where the node answers no finalized block)",
        }),
        finalizedBlock: z
          .number()
          .int()
          .nullable()
          .openapi({ description: 'the newest block the node calls finalized; null where it answers no such tag' }),
        confirmedBlock: z
          .number()
          .int()
          .nullable()
          .openapi({ description: 'the newest confirmed block: events up to it are indexed' }),
      })
      .openapi({ description: 'how blocks count as confirmed before their events are served' }),
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

const ChainStatusSchema = z
  .object({
    newBlocks: z.enum(['devnet', 'poll', 'newHeads']).openapi({
      description:
        "devnet: the embedded chain announces its blocks; poll: the RPC is asked for new blocks about once per block time; newHeads: a ws:// RPC's subscription",
    }),
    head: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "the highest block any of the RPC's nodes reported (null on the devnet)" }),
    blockTimeMs: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "the chain's block time as measured, in milliseconds (null until known)" }),
    pollMs: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'how often new blocks are polled for, in milliseconds (null when not polled)' }),
  })
  .openapi('ChainStatus');

/** How the service follows the chain's blocks, for /status. */
function chainStatus(chain: ChainContext): z.infer<typeof ChainStatusSchema> {
  const { heads, newBlocks } = chain;
  if (!heads || !newBlocks) return { newBlocks: 'devnet', head: null, blockTimeMs: null, pollMs: null };
  const blockTime = heads.blockTimeMs();
  return {
    newBlocks,
    head: heads.latest(),
    blockTimeMs: blockTime === null ? null : Math.round(blockTime),
    pollMs: newBlocks === 'poll' ? heads.pollMs() : null,
  };
}

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
              chain: ChainStatusSchema,
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
      {
        network: chain.network,
        chainId: chain.chainId,
        chain: chainStatus(chain),
        indexer: indexer.status(),
        referralWeeks: weeks.status(),
      },
      200,
    ),
  );
}
