import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { serve } from '@hono/node-server';
import { OpenAPIHono } from '@hono/zod-openapi';
import { Hono } from 'hono';
import {
  type Address,
  createPublicClient,
  custom,
  encodeFunctionData,
  getAbiItem,
  type Hex,
  numberToHex,
  type PublicClient,
  pad,
  parseEther,
  toHex,
} from 'viem';
import type { ChainContext } from '../src-main/chain/connectChain';
import { type Devnet, startDevnet } from '../src-main/chain/devnet/startDevnet';
import { LaunchFactory, LaunchToken, TradeRouter } from '../src-main/chain/generated/contracts';
import { devnetChain } from '../src-main/chain/networks';
import type { ServiceEvent } from '../src-main/chain/serviceEvents';
import type { AppEnv } from '../src-main/http/env';
import { errorHandler } from '../src-main/http/errorHandler';
import { launchesRoute } from '../src-main/http/routes/launchesRoute';
import { silentLogger } from '../src-main/log/createLogger';
import { DollarPrices } from '../src-main/services/dollarPrices';
import { Indexer } from '../src-main/services/indexer/indexer';
import { MAX_FILTER_ADDRESSES } from '../src-main/services/indexer/logSource';
import { IndexStore } from '../src-main/store/indexStore';
import { openDatabase } from '../src-main/store/openDatabase';
import { launcher } from '../test/support/launcher';
import type { Benchmark, Row } from './benchmark';
import { closedLoopLoad } from './closedLoopLoad';
import { percentile } from './stats';
import { withTempDir } from './tempDir';

const LAUNCHES = 1_500;
const TRADES = 6_000;
/** Launches and trades packed per block, as on a busy chain (the devnet's block gas limit is 140M). */
const LAUNCHES_PER_BLOCK = 20;
const TRADES_PER_BLOCK = 100;
const LISTED = 100_000;
const TRANSFER_EVENT = getAbiItem({ abi: LaunchToken.abi, name: 'Transfer' });
/** Backfills of the same chain, each into a fresh database; the median is reported. */
const BACKFILL_RUNS = 5;

/**
 * Issue 6's figures: the indexer's rate on a devnet with thousands of launches and trades (eth_getLogs, block headers,
 * decoding and the SQLite writes, from the deploy block to the head), the write rate alone, and GET /launches latency
 * over a real HTTP server with 100,000 launches in the database.
 */
export const indexerBench: Benchmark = {
  id: 'indexer',
  run: () => withTempDir('bench-indexer', measure),
};

async function measure(dir: string): Promise<Row[]> {
  process.stderr.write(`  building a devnet with ${LAUNCHES} launches and ${TRADES} trades...\n`);
  const devnet = await startDevnet();
  const client = createPublicClient({ chain: devnetChain, transport: custom(devnet.provider) }) as PublicClient;
  const { took: builtIn, tokens } = await buildChain(devnet, client);
  const transfers = await transferLogs(client, tokens);
  process.stderr.write(`  built in ${(builtIn / 1000).toFixed(1)} s, ${transfers} Transfer logs; indexing...\n`);

  // The backfill takes well under a second, so one run is at the mercy of a GC pause or a neighbour on the machine:
  // the same chain is indexed several times into fresh databases and the median is the figure.
  const runs: { seconds: number; events: number }[] = [];
  for (let run = 0; run < BACKFILL_RUNS; run++) {
    runs.push(await backfill(join(dir, `chain-${run}.sqlite`), devnet, client, transfers));
  }
  const head = Number(await client.getBlockNumber({ cacheTime: 0 }));
  const events = runs[0]?.events ?? 0;
  const rates = runs.map((r) => r.events / r.seconds);
  const medianSeconds = percentile(
    runs.map((r) => r.seconds),
    50,
  );
  const rows: Row[] = [
    {
      name:
        `indexer backfill, ${events} events (${transfers} of them the launched tokens' Transfer logs) in ` +
        `${head + 1} blocks (RPC, decode, SQLite), median of ${BACKFILL_RUNS}`,
      value: Math.round(percentile(rates, 50)),
      unit: 'events/s',
      target: { op: '>=', value: 20_000 },
    },
    {
      name: `indexer backfill, slowest of ${BACKFILL_RUNS}`,
      value: Math.round(Math.min(...rates)),
      unit: 'events/s',
    },
    {
      name: 'indexer backfill, blocks (median run)',
      value: Math.round((head + 1) / medianSeconds),
      unit: 'blocks/s',
    },
  ];
  rows.push(...(await listing(dir)));
  return rows;
}

/**
 * Sends the launches and trades from the test accounts, many to a block, and mines them. Returns the time taken and
 * the tokens launched.
 */
async function buildChain(devnet: Devnet, client: PublicClient): Promise<{ took: number; tokens: Address[] }> {
  const started = performance.now();
  const { provider, contracts, accounts } = devnet;
  const request = (method: string, params: unknown[] = []) => provider.request({ method, params } as never);
  for (const account of accounts) await request('hardhat_impersonateAccount', [account.address]);
  await request('evm_setAutomine', [false]);
  const send = (from: Address, to: Address, data: Hex, value: bigint, gas: bigint) =>
    request('eth_sendTransaction', [{ from, to, data, value: numberToHex(value), gas: numberToHex(gas) }]);
  const mine = async () => {
    await request('evm_mine');
  };

  // Creators are accounts 1-9, traders 10-19 (each binds to the first creator whose token it buys).
  const plan = launcher(devnet, client).plan;
  const launched: { token: Address; creator: Address }[] = [];
  for (let i = 0; i < LAUNCHES; i++) {
    const creatorIndex = 1 + (i % 9);
    const planned = await plan({ creator: creatorIndex, saltSeed: `bench-${i}`, name: `Bench ${i}`, symbol: `B${i}` });
    const data = encodeFunctionData({ abi: LaunchFactory.abi, functionName: 'launch', args: [planned.params] });
    await send(planned.creator.address, contracts.factory, data, 0n, 7_000_000n);
    launched.push({ token: planned.token, creator: planned.creator.address });
    if ((i + 1) % LAUNCHES_PER_BLOCK === 0) await mine();
  }
  await mine();
  for (let i = 0; i < TRADES; i++) {
    const trader = accounts[10 + (i % 10)];
    const target = launched[(i * 7) % launched.length];
    // Each trader always names the same referrer: the router refuses a bound wallet naming another (AlreadyBound).
    const referrer = launched[i % 10]?.creator;
    if (!trader || !target || !referrer) throw new Error('no trader, token or referrer');
    const data = encodeFunctionData({
      abi: TradeRouter.abi,
      functionName: 'buyExactIn',
      args: [
        {
          token: target.token,
          pair: contracts.wbnb,
          fee: 10000,
          amount: parseEther('0.01'),
          limit: 0n,
          referrer,
          deadline: 2n ** 40n,
        },
      ],
    });
    await send(trader.address, contracts.router, data, parseEther('0.01'), 400_000n);
    if ((i + 1) % TRADES_PER_BLOCK === 0) await mine();
  }
  await mine();
  await request('evm_setAutomine', [true]);
  return { took: performance.now() - started, tokens: launched.map((l) => l.token) };
}

/**
 * How many Transfer logs the launched tokens emitted (the supply minted, laid into the pool, its residue burned, each
 * buy paid out): the indexer follows them as events like the rest, so the backfill's figure counts them.
 */
async function transferLogs(client: PublicClient, tokens: readonly Address[]): Promise<number> {
  let count = 0;
  for (let i = 0; i < tokens.length; i += MAX_FILTER_ADDRESSES) {
    const logs = await client.getLogs({
      address: tokens.slice(i, i + MAX_FILTER_ADDRESSES) as Address[],
      event: TRANSFER_EVENT,
      fromBlock: 0n,
      toBlock: 'latest',
    });
    count += logs.length;
  }
  return count;
}

/** Indexes the whole chain once into a fresh database, as the service does on its first start. */
async function backfill(
  file: string,
  devnet: Devnet,
  client: PublicClient,
  transfers: number,
): Promise<{ seconds: number; events: number }> {
  const db = openDatabase(file);
  const store = new IndexStore(db);
  const prices = new DollarPrices({ client, addresses: devnet.contracts } as unknown as ChainContext);
  const indexer = new Indexer(
    {
      client,
      chainId: devnetChain.id,
      addresses: devnet.contracts,
      deployBlock: 0n,
      consistentRead: (work) => work(),
    },
    store,
    {
      confirmations: 0,
      // As the service runs it: the BNB dollar price is kept at every block with trades, from the dollar pool's
      // events where they tell it.
      priceAt: (block) => prices.sqrtPriceAt(block),
      dollarPool: () => prices.dollarPool(),
    },
  );
  const started = performance.now();
  await indexer.catchUpOnce();
  const seconds = (performance.now() - started) / 1000;
  const stored = store.counts();
  // Every launched token's holders add up to its supply: no transfer was missed or counted twice.
  const short = db
    .prepare(
      `SELECT l.token, l.supply, group_concat(h.balance) AS balances FROM launches l
       LEFT JOIN holders h ON h.token = l.token GROUP BY l.token`,
    )
    .all() as { token: Address; supply: string; balances: string | null }[];
  const unbalanced = short.filter(
    (row) => (row.balances ?? '').split(',').reduce((sum, b) => sum + BigInt(b || 0), 0n) !== BigInt(row.supply),
  );
  db.close();
  if (stored.launches !== LAUNCHES || stored.trades !== TRADES) {
    throw new Error(
      `indexed ${stored.launches} launches and ${stored.trades} trades, expected ${LAUNCHES} and ${TRADES}`,
    );
  }
  if (unbalanced.length > 0) throw new Error(`the holders of ${unbalanced[0]?.token} do not add up to its supply`);
  return { seconds, events: stored.launches + stored.trades + stored.bindings + stored.collections + transfers };
}

/** GET /launches over HTTP with LISTED launches stored (written as synthetic events, a few blocks holding several). */
async function listing(dir: string): Promise<Row[]> {
  const db = openDatabase(join(dir, 'listed.sqlite'));
  const store = new IndexStore(db);
  const addr = (n: number) => pad(toHex(n), { size: 20 }) as Address;
  store.open({ chainId: 1, factory: addr(1), router: addr(2), referrals: null, fromBlock: 1 });
  let block = 1;
  let written = 0;
  const writeStarted = performance.now();
  while (written < LISTED) {
    const events: ServiceEvent[] = [];
    const timestamps = new Map<number, number>();
    const hashes = new Map<number, Hex>();
    // A batch of 1,000 blocks, one launch in most, three in every tenth.
    for (let b = 0; b < 1000 && written < LISTED; b++, block++) {
      timestamps.set(block, 1_700_000_000 + block * 3);
      for (let i = 0; i < (block % 10 === 0 ? 3 : 1) && written < LISTED; i++, written++) {
        events.push({
          kind: 'launched',
          block,
          logIndex: i,
          txHash: pad(toHex(written), { size: 32 }),
          token: addr(1_000_000 + written),
          creator: addr(10 + (written % 5000)),
          pool: addr(5_000_000 + written),
          pair: addr(3),
          fee: 10000,
          supply: 10n ** 27n,
          openingTick: -207200,
          salt: pad(toHex(written), { size: 32 }),
          name: `Listed ${written}`,
          symbol: `L${written}`,
          metadataURI: `ipfs://listed-${written}`,
          royaltyTo: addr(0),
          burnBps: 0,
          ranges: [{ tickLower: -207200, tickUpper: 887200, bps: 10000 }],
        });
      }
    }
    hashes.set(block - 1, pad(toHex(block - 1), { size: 32 }));
    store.write({ events, timestamps, hashes, to: block - 1 });
  }
  const writeSeconds = (performance.now() - writeStarted) / 1000;
  const head = block - 1;

  const api = new OpenAPIHono<AppEnv>();
  launchesRoute(api, store);
  api.onError(errorHandler(silentLogger()));
  const app = new Hono().route('/api/v1', api);
  const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }) as import('node:http').Server;
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as import('node:net').AddressInfo).port}/api/v1`;
  const rows: Row[] = [
    {
      name: `SQLite writes of ${LISTED} launches (1,000-block batches)`,
      value: Math.round(LISTED / writeSeconds),
      unit: 'events/s',
      target: { op: '>=', value: 20_000 },
    },
  ];
  try {
    const pages = [
      { name: 'newest 50', path: '/launches' },
      { name: 'newest 200', path: '/launches?limit=200' },
      { name: 'after a block halfway, 200', path: `/launches?after=${Math.floor(head / 2)}&limit=200` },
      { name: 'after the head (a poll with nothing new)', path: `/launches?after=${head}` },
    ];
    for (const page of pages) {
      const load = await closedLoopLoad({
        url: `${base}${page.path}`,
        connections: 4,
        durationMs: 2_000,
        maxRequests: 50_000,
      });
      if (load.non200 > 0 || load.errors > 0) throw new Error(`GET ${page.path}: ${load.firstFailure}`);
      rows.push(
        {
          name: `GET /launches at ${LISTED} launches, ${page.name}, p50`,
          value: round(percentile(load.latenciesMs, 50)),
          unit: 'ms',
          target: { op: '<', value: 20 },
        },
        {
          name: `GET /launches at ${LISTED} launches, ${page.name}, p99`,
          value: round(percentile(load.latenciesMs, 99)),
          unit: 'ms',
        },
      );
    }
  } finally {
    server.close();
    server.closeAllConnections();
    db.close();
  }
  return rows;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
