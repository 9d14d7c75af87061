import { performance } from 'node:perf_hooks';
import { type Address, createPublicClient, http, type PublicClient } from 'viem';
import { createCompanion } from '../clients/ts/src/index';
import { testAccounts } from '../src-main/chain/devnet/testAccounts';
import { devnetChain } from '../src-main/chain/networks';
import { silentLogger } from '../src-main/log/createLogger';
import { startService } from '../src-main/startService';
import { launcher } from '../test/support/launcher';
import { openSse } from '../test/support/sseReader';
import type { Benchmark, Row } from './benchmark';
import { deadlineFor } from './deadline';
import { startServer } from './loadMix';
import { percentile } from './stats';
import { withTempDir } from './tempDir';

/** Launches measured, after a few that warm the service and the stream up. */
const LAUNCHES = 30;
const WARM_UP = 5;
const SUBSCRIBERS = 100;
/** The account a sniping bot buys from. */
const BOT = 12;

/**
 * Issue 20's figures for bots. In one process with the service (so "the block is made" is the devnet's own moment,
 * when it announces the block), a sniper on the typed client: how soon a launch reaches it on GET /events, and how
 * soon after the event it has POST /build/buy's answer for that token, which nobody quoted before. Then, with the
 * server in a process of its own: its live heap with 100 idle subscribers, against none.
 */
export const botStream: Benchmark = {
  id: 'bot-stream',
  async run() {
    return [...(await withTempDir('bench-bot-latency', latency)), ...(await withTempDir('bench-bot-memory', memory))];
  },
};

async function latency(dataDir: string): Promise<Row[]> {
  const service = await startService({
    port: 0,
    dataDir,
    network: 'devnet',
    seed: false,
    rateLimits: false,
    logger: silentLogger(),
  });
  const made = new Map<number, number>();
  const stopWatching = service.chain.onBlock((block) => made.set(Number(block), performance.now()));
  const heard = new Map<string, { block: number; at: number }>();
  const built = new Map<string, Promise<number>>();
  const bot = testAccounts()[BOT]?.address;
  if (!bot) throw new Error(`no test account ${BOT}`);
  const companion = createCompanion({ baseUrl: service.url });
  const stop = new AbortController();
  let listening = () => {};
  const listened = new Promise<void>((resolve) => {
    listening = resolve;
  });
  // The sniper: on each launch, it asks for the buy at once.
  const sniping = (async () => {
    for await (const event of companion.events({ types: ['launch', 'block'], signal: stop.signal })) {
      if (event.event === 'block') {
        listening();
        continue;
      }
      const at = performance.now();
      const { token, block } = event.data;
      heard.set(token, { block, at });
      const answered = companion.buildBuy({ wallet: bot, token, amount: '0.05' }).then(() => performance.now());
      // Awaited below, once the launch loop reaches this token; marked handled so a failure waits for it there.
      answered.catch(() => {});
      built.set(token, answered);
    }
  })();
  try {
    // The stream opens with the indexed block: launches from then on reach the sniper.
    await within(
      Promise.race([
        listened,
        sniping.then(() => {
          throw new Error('the event stream ended before it opened');
        }),
      ]),
      'opening the event stream',
    );
    const transport = http(`${service.origin}/rpc`);
    const client = createPublicClient({ chain: devnetChain, transport }) as PublicClient;
    const contracts = (
      (await (await fetch(`${service.url}/settings`)).json()) as { contracts: Record<string, Address> }
    ).contracts;
    const { factory, wbnb } = contracts;
    if (!factory || !wbnb) throw new Error('the devnet lacks the factory');
    const launch = launcher({ accounts: testAccounts(), contracts: { factory, wbnb }, transport }, client);
    const toEvent: number[] = [];
    const toBuild: number[] = [];
    for (let i = 0; i < WARM_UP + LAUNCHES; i++) {
      const launched = await within(
        launch.launch({ creator: 2 + (i % 8), saltSeed: `bot-stream-${i}` }),
        `launch ${i}`,
      );
      if (launched.result !== 'ok') throw new Error(`launch ${i}: ${launched.result}`);
      const token = launched.token;
      const deadline = performance.now() + 10_000;
      while (!built.has(token)) {
        if (performance.now() > deadline) throw new Error(`launch ${i} never reached the stream`);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      const answered = await within(built.get(token) as Promise<number>, `the build after launch ${i}`);
      const event = heard.get(token);
      const blockMade = event ? made.get(event.block) : undefined;
      if (!event || answered === undefined || blockMade === undefined) throw new Error(`launch ${i}: no timing`);
      if (i < WARM_UP) continue;
      toEvent.push(event.at - blockMade);
      toBuild.push(answered - event.at);
    }
    const n = toEvent.length;
    return [
      {
        name: `launch to GET /events subscriber, after the block is made, p50 of ${n}`,
        value: round(percentile(toEvent, 50)),
        unit: 'ms',
        target: { op: '<', value: 20 },
      },
      { name: 'launch to GET /events subscriber, p95', value: round(percentile(toEvent, 95)), unit: 'ms' },
      {
        name: `launch event to POST /build/buy answered (token never quoted), p50 of ${n}`,
        value: round(percentile(toBuild, 50)),
        unit: 'ms',
        target: { op: '<', value: 15 },
      },
      { name: 'launch event to POST /build/buy answered, p95', value: round(percentile(toBuild, 95)), unit: 'ms' },
    ];
  } finally {
    stop.abort();
    await within(
      sniping.catch(() => {}),
      'closing the event stream',
    ).catch(() => {});
    stopWatching();
    await within(service.close(), 'closing the service');
  }
}

async function memory(dataDir: string): Promise<Row[]> {
  const server = await startServer(dataDir, false);
  const streams: Awaited<ReturnType<typeof openSse>>[] = [];
  try {
    // Settle first: the seed's launches indexed and their logos looked for.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const before = await server.heapAfterGc();
    for (let i = 0; i < SUBSCRIBERS; i++) streams.push(await openSse(`${server.url}/events`));
    for (const stream of streams) await waitFor(() => stream.events.length > 0);
    const after = await server.heapAfterGc();
    const growth = after - before;
    return [
      { name: 'GET /events: server heap after a full GC, no subscriber', value: round2(before), unit: 'MiB' },
      {
        name: `GET /events: server heap growth with ${SUBSCRIBERS} idle subscribers`,
        value: round2(growth),
        unit: 'MiB',
        target: { op: '<', value: 5 },
      },
      {
        name: 'GET /events: server heap per idle subscriber',
        value: Math.round((growth * 1024) / SUBSCRIBERS),
        unit: 'KiB',
      },
    ];
  } finally {
    for (const stream of streams) stream.close();
    await server.stop();
  }
}

async function waitFor(done: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!done()) {
    if (performance.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const round = (ms: number) => Math.round(ms * 10) / 10;
const round2 = (value: number) => Math.round(value * 100) / 100;

const within = deadlineFor('bot-stream', 30_000);
