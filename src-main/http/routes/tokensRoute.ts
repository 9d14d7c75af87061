import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { Address } from 'viem';
import { TOP_HOLDERS, TokenParamsSchema, TokenSchema } from '../../../src-shared/schema/tokens';
import { formatDecimalAmount } from '../../core/units/decimalAmount';
import type { Indexer } from '../../services/indexer/indexer';
import { type TokenHolders, tokenHolders } from '../../services/tokenHolders';
import type { TokenRegistry } from '../../services/tokenRegistry';
import type { IndexStore } from '../../store/indexStore';
import type { AppEnv } from '../env';
import { errorResponses } from '../schemas';
import { imageLink } from './launchesRoute';

const route = createRoute({
  method: 'get',
  path: '/tokens/{address}',
  summary: "A launched token: its pool, creator and pair currency, its logo and its metadata's details",
  description:
    'An addition to the spec: `holders`, who holds the token, from the Transfer logs of every token launched here as ' +
    'the indexer reads them with the rest (confirmed blocks only; a reorganization undoes the transfers of the blocks ' +
    `it dropped). \`count\` is how many addresses hold any; \`top\` the ${TOP_HOLDERS} largest, each with its balance, ` +
    "its share of the supply and what it is to the launch (creator, the token's pool, a dead address, a first-buy " +
    'recipient, the factory). The caller is not marked: the API does not know whose wallet asks, so a client marks ' +
    'its own address itself. `holders` is null until the indexer has the launch. The other fields are as the spec ' +
    'says.',
  request: { params: TokenParamsSchema },
  responses: {
    200: { description: 'Token', content: { 'application/json': { schema: TokenSchema } } },
    ...errorResponses(400, 503),
  },
});

/** The holders as the API writes them, amounts in the token's decimals. */
function holdersJson(holders: TokenHolders, decimals: number, block: number) {
  return {
    count: holders.count,
    top: holders.top.map((holder) => ({
      address: holder.holder,
      balance: { amount: formatDecimalAmount(holder.balance, decimals), wei: holder.balance.toString() },
      sharePct: Number(holder.shareMicros) / 10_000,
      labels: holder.labels,
    })),
    block,
  };
}

export function tokensRoute(
  app: OpenAPIHono<AppEnv>,
  tokens: TokenRegistry,
  index: IndexStore,
  indexer: Pick<Indexer, 'indexedBlock'>,
  factory: Address | undefined,
): void {
  app.openapi(route, async (c) => {
    const facts = await tokens.get(c.req.valid('param').address, 'address');
    const launch = index.launch(facts.address);
    const block = indexer.indexedBlock();
    const holders = launch
      ? holdersJson(tokenHolders(index, launch, factory, TOP_HOLDERS), facts.decimals, block)
      : null;
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
        holders,
      },
      200,
    );
  });
}
