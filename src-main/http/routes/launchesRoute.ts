import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { LaunchesQuerySchema, LaunchPageSchema } from '../../../src-shared/schema/launches';
import type { IndexStore, ListedLaunch } from '../../store/indexStore';
import type { AppEnv } from '../env';
import { errorResponses } from '../schemas';

const route = createRoute({
  method: 'get',
  path: '/launches',
  summary: 'Launched tokens: the newest, or everything since a block (for polling)',
  description:
    'Without `after`: the newest launches, newest first. With `after`: launches in blocks after it, oldest first. ' +
    'A page never splits a block, so a block number is a cursor that neither skips nor repeats; a page may hold ' +
    'fewer than `limit` launches, and when one block alone holds more, the page is that whole block. A launch ' +
    "appears once its block has the network's confirmations (0 on the devnet).",
  request: { query: LaunchesQuerySchema },
  responses: {
    200: { description: 'Launch page', content: { 'application/json': { schema: LaunchPageSchema } } },
    ...errorResponses(400),
  },
});

/** A logo stored on this server is kept as its path; the answer carries the link at the origin it was asked on. */
export function imageLink(image: string | null, origin: string): string | null {
  return image?.startsWith('/') ? `${origin}${image}` : image;
}

/** A GET /launches item; also the data of the event stream's launch events. */
export function launchItem(launch: ListedLaunch, origin: string) {
  return {
    token: launch.token,
    symbol: launch.symbol,
    name: launch.name,
    creator: launch.creator,
    pool: launch.pool,
    pair: launch.pair,
    feeTier: launch.fee,
    image: imageLink(launch.image, origin),
    launchedAt: new Date(launch.timestamp * 1000).toISOString(),
    tx: launch.txHash,
    block: launch.block,
  };
}

export function launchesRoute(app: OpenAPIHono<AppEnv>, index: IndexStore): void {
  app.openapi(route, (c) => {
    const { after, limit } = c.req.valid('query');
    const launches = after === undefined ? index.newestLaunches(limit) : index.launchesAfter(after, limit);
    const newest = after === undefined ? launches[0] : launches[launches.length - 1];
    const origin = new URL(c.req.url).origin;
    return c.json({ launches: launches.map((launch) => launchItem(launch, origin)), next: newest?.block ?? null }, 200);
  });
}
