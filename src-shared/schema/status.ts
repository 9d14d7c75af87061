import { z } from 'zod';

export const IndexerStatusSchema = z
  .object({
    state: z.enum(['starting', 'backfilling', 'following', 'retrying', 'stopped']).meta({
      description:
        'backfilling: more than one batch behind the chain; following: keeping up; retrying: the last read failed',
    }),
    fromBlock: z.number().int().meta({ description: "the contracts' deploy block, where indexing starts" }),
    indexedBlock: z.number().int().meta({ description: 'every event up to and including this block is served' }),
    chainHead: z.number().int().nullable(),
    confirmations: z.number().int(),
    confirmation: z
      .object({
        by: z.enum(['finalized', 'blocks']).meta({
          description:
            "finalized: the node's finalized block (BSC's fast finality) is what makes a block confirmed; blocks: `confirmations` blocks on top (also where the node answers no finalized block)",
        }),
        finalizedBlock: z
          .number()
          .int()
          .nullable()
          .meta({ description: 'the newest block the node calls finalized; null where it answers no such tag' }),
        confirmedBlock: z
          .number()
          .int()
          .nullable()
          .meta({ description: 'the newest confirmed block: events up to it are indexed' }),
      })
      .meta({ description: 'how blocks count as confirmed before their events are served' }),
    blocksDone: z.number().int().meta({ description: 'blocks indexed since the service started' }),
    blocksLeft: z.number().int().meta({ description: 'confirmed blocks not indexed yet' }),
    blocksPerSecond: z.number().int(),
    eventsPerSecond: z.number().int(),
    range: z.number().int().meta({ description: 'block range of the next eth_getLogs (adapts to the RPC)' }),
    reorgs: z.number().int().meta({ description: 'reorganizations rolled back since the service started' }),
    stored: z.object({
      launches: z.number().int(),
      trades: z.number().int(),
      bindings: z.number().int(),
      collections: z.number().int(),
    }),
    lastError: z.object({ message: z.string(), at: z.string() }).nullable(),
  })
  .meta({ id: 'IndexerStatus' });

/** What GET /status tells of the indexer; the service's Indexer builds it, so the two cannot drift apart. */
export type IndexerStatus = z.infer<typeof IndexerStatusSchema>;

export const ChainStatusSchema = z
  .object({
    newBlocks: z.enum(['devnet', 'poll', 'newHeads']).meta({
      description:
        "devnet: the embedded chain announces its blocks; poll: the RPC is asked for new blocks about once per block time; newHeads: a ws:// RPC's subscription",
    }),
    head: z
      .number()
      .int()
      .nullable()
      .meta({ description: "the highest block any of the RPC's nodes reported (null on the devnet)" }),
    blockTimeMs: z
      .number()
      .int()
      .nullable()
      .meta({ description: "the chain's block time as measured, in milliseconds (null until known)" }),
    pollMs: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'how often new blocks are polled for, in milliseconds (null when not polled)' }),
    devnet: z
      .object({
        blockTimeMs: z.number().int().meta({
          description:
            'the cadence set by --block-time: a block every this many milliseconds holding the mempool by priority fee then arrival; 0 mines each transaction at once in a block of its own',
        }),
        clock: z.number().int().meta({
          description: "the chain's clock in Unix seconds: the next block is made no earlier",
        }),
        clockOffset: z.number().int().meta({
          description:
            'seconds the clock was moved ahead of the wall clock (evm_increaseTime, evm_setNextBlockTimestamp)',
        }),
        pending: z.number().int().meta({ description: 'transactions waiting in the mempool' }),
      })
      .nullable()
      .optional()
      .meta({ description: 'the embedded chain (devnet and fork) only; an addition to v1' }),
  })
  .meta({ id: 'ChainStatus' });

export type ChainStatus = z.infer<typeof ChainStatusSchema>;

/** GET /status. */
export const StatusSchema = z
  .object({
    network: z.string(),
    chainId: z.number().int(),
    chain: ChainStatusSchema,
    indexer: IndexerStatusSchema,
    referralWeeks: z.object({
      lastClosedWeek: z.number().int().nullable(),
      awaitingOperator: z
        .array(z.object({ week: z.number().int(), to: z.string(), value: z.string(), data: z.string() }))
        .meta({
          description:
            "testnet and mainnet: each closed week's postRoot transaction, for the vault's owner to sign and send with the week's funds",
        }),
    }),
  })
  .meta({ id: 'Status' });
