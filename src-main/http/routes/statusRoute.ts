import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { type ChainStatus, StatusSchema } from '../../../src-shared/schema/status';
import type { ChainContext } from '../../chain/connectChain';
import type { Indexer } from '../../services/indexer/indexer';
import type { LifetimeWeeks } from '../../services/lifetimeWeeks';
import type { AppEnv } from '../env';
import { errorResponses } from '../schemas';

/** How the service follows the chain's blocks, for /status. */
async function chainStatus(chain: ChainContext): Promise<ChainStatus> {
  const { heads, newBlocks, devnet } = chain;
  if (devnet) {
    // As /rpc answers it: the private lane's transactions, never public, are not counted.
    const pending = (await devnet.publicRead(() =>
      devnet.provider.request({ method: 'eth_pendingTransactions', params: [] } as never),
    )) as [];
    return {
      newBlocks: 'devnet',
      head: null,
      blockTimeMs: devnet.blockTimeMs > 0 ? devnet.blockTimeMs : null,
      pollMs: null,
      devnet: {
        blockTimeMs: devnet.blockTimeMs,
        clock: devnet.clock(),
        clockOffset: devnet.clockOffset(),
        pending: pending.length,
      },
    };
  }
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
          schema: StatusSchema,
        },
      },
    },
    ...errorResponses(),
  },
});

export function statusRoute(
  app: OpenAPIHono<AppEnv>,
  chain: ChainContext,
  indexer: Indexer,
  weeks: LifetimeWeeks,
): void {
  app.openapi(route, async (c) =>
    c.json(
      {
        network: chain.network,
        chainId: chain.chainId,
        chain: await chainStatus(chain),
        indexer: indexer.status(),
        referralWeeks: weeks.status(),
      },
      200,
    ),
  );
}
