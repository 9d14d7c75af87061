import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type Address, createPublicClient, http, type PublicClient } from 'viem';
import { testAccounts } from '../src-main/chain/devnet/testAccounts';
import { devnetChain } from '../src-main/chain/networks';
import { launcher } from '../test/support/launcher';
import { type PublicRpcOptions, publicRpc } from '../test/support/publicRpc';
import type { Benchmark, Row } from './benchmark';
import { startServer } from './server';
import { percentile } from './stats';
import { stopChild } from './stopChild';
import { withTempDir } from './tempDir';

/** BSC's block time since 2025. */
const BLOCK_MS = 750;
/** How far below its head the stand-in's nodes answer `finalized` (BSC's fast finality: about two blocks). */
const FINALIZED_DEPTH = 2;
/** A launch every this many blocks; the first launches only warm the service's block-time measurement up. */
const LAUNCH_EVERY = 4;
const LAUNCHES = 23;
const WARM_UP = 3;
/** How often the bench looks at GET /launches for the new token. */
const LOOK_EVERY_MS = 5;

/**
 * Issue 18's figure: how soon a launch appears in GET /launches once its block is confirmed, for a service reading a
 * free public RPC (the stand-in, BSC's `finalized` tag two blocks below the head) in front of a chain making a block
 * every 0.75 s. The chain is a devnet server in its own process, the service another; "confirmed" is the moment the
 * block two above the launch's is made, which makes the launch's block finalized on the RPC. Measured twice: every
 * node up to date (the target: under one block time), and load-balanced nodes up to a block behind (for information:
 * the node asked learns of a block, and of its finality, up to a block later).
 */
export const confirmedToListedBench: Benchmark = {
  id: 'confirmed-to-listed',
  async run() {
    const rows: Row[] = [];
    for (const scenario of SCENARIOS)
      rows.push(...(await withTempDir('bench-confirmed', (dir) => measure(dir, scenario))));
    return rows;
  },
};

interface Scenario {
  /** How the figure names the RPC. */
  label: string;
  rpc: PublicRpcOptions;
  /** Whether the figure is held to the target (under one block time). */
  targeted: boolean;
}

const SCENARIOS: readonly Scenario[] = [
  { label: 'public RPC', rpc: {}, targeted: true },
  // Load-balanced nodes, some a block behind: a block and its finality reach the node asked a block later.
  { label: 'public RPC, nodes up to a block behind', rpc: { lag: 1, assign: 'random' }, targeted: false },
];

async function measure(dir: string, scenario: Scenario): Promise<Row[]> {
  const chain = await startServer(join(dir, 'devnet'));
  const origin = new URL(chain.url).origin;
  const rpc = await publicRpc(`${origin}/rpc`, { finalized: FINALIZED_DEPTH, ...scenario.rpc });
  let service: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    const transport = http(`${origin}/rpc`);
    const client = createPublicClient({ chain: devnetChain, transport }) as PublicClient;
    const contracts = ((await (await fetch(`${chain.url}/settings`)).json()) as { contracts: Record<string, Address> })
      .contracts;
    const { factory, router, referrals, config, siteFeeRecipient, ...exchange } = contracts;
    const { wbnb } = exchange;
    if (!factory || !wbnb) throw new Error('the devnet lacks the factory');
    const deployments = join(dir, 'service', 'deployments');
    mkdirSync(deployments, { recursive: true });
    writeFileSync(
      join(deployments, 'testnet.json'),
      JSON.stringify({
        config,
        factory,
        router,
        referrals,
        fromBlock: 0,
        exchange,
      }),
    );
    service = await startServer(join(dir, 'service', 'data'), {
      args: ['--network', 'testnet', '--rpc', rpc.url],
      cwd: join(dir, 'service'),
    });
    const serviceUrl = service.url;
    const statusOf = async () =>
      (await (await fetch(`${serviceUrl}/status`)).json()) as {
        chain: { blockTimeMs: number | null; pollMs: number | null };
        indexer: { indexedBlock: number; confirmation: { by: string } };
      };
    // The service has backfilled the seed before the clock starts.
    for (let head = Number(await client.getBlockNumber({ cacheTime: 0 })); ; ) {
      if ((await statusOf()).indexer.indexedBlock >= head - FINALIZED_DEPTH) break;
      await sleep(100);
    }

    const launch = launcher({ accounts: testAccounts(), contracts: { factory, wbnb }, transport }, client);
    const made = new Map<number, number>();
    const listed: Promise<{ block: number; at: number }>[] = [];
    const started = performance.now();
    let launches = 0;
    for (let tick = 1; launches < LAUNCHES || tick % LAUNCH_EVERY !== 1; tick++) {
      await sleep(started + tick * BLOCK_MS - performance.now());
      if (tick % LAUNCH_EVERY === 1 && launches < LAUNCHES) {
        // The launch is the tick's block.
        const launched = await launch.launch({ creator: 3 + (launches % 5), saltSeed: `confirmed-${launches}` });
        if (launched.result !== 'ok' || !launched.hash) throw new Error(`launch ${launches}: ${launched.result}`);
        const block = Number((await client.getTransactionReceipt({ hash: launched.hash })).blockNumber);
        made.set(block, performance.now());
        listed.push(appearing(serviceUrl, launched.token).then((at) => ({ block, at })));
        launches++;
      } else {
        await client.request({ method: 'evm_mine' } as never);
        made.set(Number(await client.getBlockNumber({ cacheTime: 0 })), performance.now());
      }
    }
    const delays: number[] = [];
    for (const [i, sample] of (await Promise.all(listed)).entries()) {
      const confirmedAt = made.get(sample.block + FINALIZED_DEPTH);
      if (confirmedAt === undefined) throw new Error(`block ${sample.block + FINALIZED_DEPTH} was not made`);
      if (i >= WARM_UP) delays.push(sample.at - confirmedAt);
    }
    const { chain: heads, indexer } = await statusOf();
    if (indexer.confirmation.by !== 'finalized')
      throw new Error(`confirmed by ${indexer.confirmation.by}, not finalized`);
    const what = `launch confirmed (finalized) to listed in GET /launches, ${scenario.label} at ${BLOCK_MS} ms blocks`;
    const target = scenario.targeted ? { target: { op: '<' as const, value: BLOCK_MS } } : {};
    return [
      { name: `${what}, p50 of ${delays.length}`, value: round(percentile(delays, 50)), unit: 'ms', ...target },
      { name: `${what}, p95`, value: round(percentile(delays, 95)), unit: 'ms' },
      {
        name: `${scenario.label}: the service's measured block time`,
        value: heads.blockTimeMs ?? Number.NaN,
        unit: 'ms',
      },
      { name: `${scenario.label}: the service's poll for new blocks`, value: heads.pollMs ?? Number.NaN, unit: 'ms' },
    ];
  } finally {
    if (service) await stopChild(service.child, new Promise((resolve) => service?.child.once('exit', resolve)));
    await rpc.close();
    await stopChild(chain.child, new Promise((resolve) => chain.child.once('exit', resolve)));
  }
}

/** Resolves with the moment `token` is first in the service's GET /launches. */
async function appearing(url: string, token: Address): Promise<number> {
  for (;;) {
    const { launches } = (await (await fetch(`${url}/launches?limit=5`)).json()) as { launches: { token: string }[] };
    if (launches.some((l) => l.token.toLowerCase() === token.toLowerCase())) return performance.now();
    await sleep(LOOK_EVERY_MS);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const round = (ms: number) => Math.round(ms);
