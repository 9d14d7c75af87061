import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { dumpIndex } from './support/indexDump';
import { type PublicRpc, publicRpc } from './support/publicRpc';
import { startTestService, type TestService } from './support/startTestService';
import { testnetDeployments } from './support/testnetDeployments';

/*
 * The service over a free public RPC (the stand-in in front of a devnet that has launches and trades made before the
 * service starts, all older than the node's state window).
 */
let devnet: TestService;
let rpc: PublicRpc;
let deployments: string;
const started: TestService[] = [];

const STATE_WINDOW = 128;

beforeAll(async () => {
  devnet = await startTestService(undefined, { seed: true });
  await devnet.seeded;
  rpc = await publicRpc(`${devnet.origin}/rpc`);
  // Every launch and trade falls out of the node's state window.
  for (let i = 0; i < STATE_WINDOW + 80; i++) await devnet.chain.devnet?.mine();
  deployments = testnetDeployments(devnet.chain.addresses);
}, 120_000);
afterAll(async () => {
  for (const service of started) await service.dispose();
  await rpc?.close();
  await devnet?.dispose();
});

interface Status {
  indexer: { state: string; indexedBlock: number; blocksLeft: number };
}
const statusOf = async (service: TestService) => (await (await fetch(`${service.url}/status`)).json()) as Status;

/** The event tables and the block prices; the cursor's block and hash (its chain id differs by network). */
function indexOf(service: TestService) {
  const file = join(service.dataDir, 'app.sqlite');
  const { cursor, ...events } = dumpIndex(file);
  const db = new Database(file, { readonly: true });
  try {
    const prices = db.prepare('SELECT block, sqrt_price_x96 FROM block_prices ORDER BY block').all();
    const [at] = (cursor ?? []) as { block: number; hash: string }[];
    return { events, prices, cursor: { block: at?.block, hash: at?.hash } };
  } finally {
    db.close();
  }
}

/** A service over the stand-in, disposed when the test ends (the stand-in's options are shared). */
async function serviceOverRpc(lines: string[] = [], confirmations = 0): Promise<TestService> {
  const service = await startTestService(undefined, {
    network: 'testnet',
    rpcUrl: rpc.url,
    deploymentsDir: deployments,
    rateLimits: false,
    confirmations,
    log: (line) => lines.push(line),
  });
  started.push(service);
  return service;
}

afterEach(async () => {
  for (const service of started.splice(0)) await service.dispose();
});

describe('the first backfill over a free public RPC', () => {
  it('indexes every launch and trade and its dollar price without archive state, within the range and rate limits, showing progress', async () => {
    rpc.set({ maxLogRange: 100, maxLogResults: 20, stateWindow: STATE_WINDOW, requestsPerSecond: 4 });
    const lines: string[] = [];
    const service = await serviceOverRpc(lines);
    const head = Number(await devnet.chain.client.getBlockNumber());
    const seen: Status['indexer'][] = [];
    for (const deadline = Date.now() + 90_000; Date.now() < deadline; ) {
      const { indexer } = await statusOf(service);
      seen.push(indexer);
      if (indexer.indexedBlock >= head) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(seen.at(-1)?.indexedBlock).toBe(head);
    // Progress was visible while it ran.
    expect(seen.some((s) => s.state === 'backfilling' && s.blocksLeft > 0 && s.indexedBlock < head)).toBe(true);
    expect(lines.some((line) => /indexer: caught up at block/.test(line))).toBe(true);
    // It met the limits and kept within them.
    expect(rpc.counts.refused.get('eth_getLogs') ?? 0).toBeGreaterThan(0);
    expect(rpc.counts.limited).toBeGreaterThan(0);

    await devnet.indexer.waitFor(head);
    const truth = indexOf(devnet);
    expect(truth.events.trades?.length).toBeGreaterThan(0);
    expect(truth.prices.length).toBeGreaterThan(0);
    expect(indexOf(service)).toEqual(truth);
  }, 120_000);
});

describe('the first backfill over load-balanced public nodes', () => {
  it('ends with the same index when each request may land on a node up to two blocks behind', async () => {
    rpc.set({ maxLogRange: 100, stateWindow: STATE_WINDOW, lag: 2 });
    // BSC's default of 3 confirmations: the newest block indexed is one every node has.
    const service = await serviceOverRpc([], 3);
    const head = Number(await devnet.chain.client.getBlockNumber());
    await vi.waitFor(async () => expect((await statusOf(service)).indexer.indexedBlock).toBe(head - 3), {
      timeout: 60_000,
      interval: 100,
    });
    const { events, prices } = indexOf(devnet);
    expect(indexOf(service)).toMatchObject({ events, prices });
  }, 90_000);
});

describe('an RPC that answers 429 under load', () => {
  it('slows the service down instead of failing its answers', async () => {
    rpc.set({});
    const lines: string[] = [];
    const service = await serviceOverRpc(lines);
    const head = Number(await devnet.chain.client.getBlockNumber());
    await service.indexer.waitFor(head);
    const { launches } = (await (await fetch(`${devnet.url}/launches`)).json()) as { launches: { token: string }[] };
    expect(launches.length).toBeGreaterThan(1);
    rpc.set({ requestsPerSecond: 2, retryAfterSeconds: 1 });
    const paths = launches
      .slice(0, 2)
      .flatMap(({ token }) => [`/tokens/${token}`, `/quote?token=${token}&side=buy&amount=0.01`]);
    const answers = [];
    for (const path of paths) answers.push(fetch(`${service.url}${path}`));
    const statuses = await Promise.all(answers.map(async (answer) => (await answer).status));
    expect(statuses).toEqual(paths.map(() => 200));
    expect(rpc.counts.limited).toBeGreaterThan(0);
    expect(lines.some((line) => /^chain: the RPC asks to slow down \(429\)/.test(line))).toBe(true);
  }, 60_000);
});

describe('an RPC without eth_getLogs', () => {
  it.each(['not-found', 'disabled'] as const)(
    'says so once at start, naming what the RPC lacks, and /status says it (%s)',
    async (refuseLogs) => {
      rpc.set({ refuseLogs });
      const lines: string[] = [];
      const service = await serviceOverRpc(lines);
      await vi.waitFor(
        async () => {
          const { indexer } = (await (await fetch(`${service.url}/status`)).json()) as {
            indexer: { lastError: { message: string } | null };
          };
          expect(indexer.lastError?.message).toMatch(/^the RPC does not serve eth_getLogs/);
        },
        { timeout: 10_000, interval: 100 },
      );
      expect(lines.filter((line) => /does not serve eth_getLogs/.test(line))).toHaveLength(1);
    },
  );
});
