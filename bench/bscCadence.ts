import { performance } from 'node:perf_hooks';
import {
  type Address,
  createPublicClient,
  custom,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  type PublicClient,
  parseEther,
  parseGwei,
} from 'viem';
import { seededRandom } from '../scripts/rehearsal/rpcWallet';
import type { Devnet } from '../src-main/chain/devnet/startDevnet';
import { LaunchFactory } from '../src-main/chain/generated/contracts';
import { QuoterV2 } from '../src-main/chain/generated/vendor';
import { devnetChain } from '../src-main/chain/networks';
import type { RunningService } from '../src-main/startService';
import { launcher } from '../test/support/launcher';
import { openSse, type SseConnection } from '../test/support/sseReader';
import type { Benchmark, Row } from './benchmark';
import {
  allowRouterCalls,
  BSC_BLOCK_MS,
  buyCall,
  type Call,
  LAUNCH_FEE,
  LocalSigner,
  type RpcEndpoint,
  rpcEndpoint,
  type SwapContracts,
  sellCall,
  startAtBscCadence,
  TIP_WEI,
} from './cadenceTraffic';
import { deadlineFor } from './deadline';
import { max, percentile } from './stats';
import { withTempDir } from './tempDir';

/** BSC's block time since 2025. */
const BLOCK_MS = BSC_BLOCK_MS;
/** Launches measured for row 1, after a few that warm the service, the stream and the index up. */
const LAUNCHES = 20;
const LAUNCH_WARM_UP = 3;
/** A launch is sent this long after a block is made (at random within it), well before the next block. */
const LAUNCH_SEND_MS = [100, 400] as const;
/** Swaps per block of the three traffic phases, the blocks measured in each, and blocks to settle the load first. */
const SWAPS_PER_BLOCK = [1, 5, 20] as const;
const TRAFFIC_BLOCKS = 20;
const TRAFFIC_WARM_UP = 2;
/** Each swap is sent at a random moment in this first part of the block after the one it follows. */
const SWAP_SEND_WINDOW_MS = 450;
/** Launched tokens the traffic trades; the first is traded in every block and is the one quoted. */
const TRADED_TOKENS = 4;
/** What each trader buys of each traded token before the traffic, so it has tokens to sell. */
const SETUP_BUY = parseEther('0.3');
/** GET /quote at random moments, this many per block of traffic: a buy of this many BNB. */
const QUOTES_PER_BLOCK = 2;
const QUOTE_BNB = '0.01';
/** How far back from the head a quote's state is looked for. */
const QUOTE_LOOKBACK = 8;
const BATCH = 100;

/**
 * Issue 26's figures at BSC's cadence: the service runs its devnet at a block every 750 ms (whether or not anything
 * was sent), in this process, so "a block is produced" is the devnet's own moment (its onBlock), and everything else
 * is timed on the same clock. A GET /events subscriber reads the stream over loopback HTTP.
 *
 * 1. A block produced -> the launch it holds at the subscriber, and where that time goes; 2. a block produced -> its
 * `block` event at the subscriber (the stream has sent every event up to it), and the in-process index storing it;
 * both on a quiet chain with a launch every few blocks. 3. Under 1, 5 and 20 swaps per block (test accounts signing
 * locally, explicit gas, each swap sent at a random moment early in the block): whether the swaps landed, and the
 * index's and the stream's lag in blocks (the newest block produced minus the newest stored or announced), exactly
 * over time from each block's moments. 4. Under the same traffic, GET /quote at random moments and as each block is
 * produced: which block's pool state the answer used, found by comparing it with QuoterV2 run at the head and the
 * blocks below (the service does not say which block a quote is of).
 */
export const bscCadence: Benchmark = {
  id: 'bsc-cadence',
  run: () => withTempDir('bench-bsc-cadence', measure),
};

/** Where the indexer's eth_getLogs for a range of blocks was sent and answered. */
interface LogsRead {
  from: number;
  to: number;
  sent: number;
  answered: number;
}

/**
 * The bench's clocks, all performance.now(): when each block was produced (devnet onBlock), stored by the indexer
 * (indexer.waitFor resolved, which is just after the batch's frames were handed to the streams' sockets), and
 * announced on the subscriber's stream; when each launch reached the subscriber; and the indexer's eth_getLogs.
 */
class Observer {
  readonly made = new Map<number, number>();
  readonly stored = new Map<number, number>();
  readonly streamed = new Map<number, number>();
  readonly launches = new Map<string, { block: number; at: number }>();
  readonly logsReads: LogsRead[] = [];
  /** The newest block produced. */
  head = -1;
  /** The newest block the subscriber's stream announced. */
  streamHead = -1;
  private readonly blockWaiters = new Set<(block: number) => void>();
  private readonly launchWaiters = new Map<string, () => void>();
  private readonly unsubscribe: () => void;
  private readonly restoreRequest: () => void;
  private stream: SseConnection | undefined;

  constructor(private readonly service: RunningService) {
    this.unsubscribe = service.chain.onBlock((number) => {
      const at = performance.now();
      const block = Number(number);
      this.made.set(block, at);
      this.head = block;
      service.indexer.waitFor(block).then(
        () => this.stored.set(block, performance.now()),
        () => {},
      );
      for (const waiter of [...this.blockWaiters]) waiter(block);
    });
    this.restoreRequest = this.timeIndexerLogs();
  }

  /** Opens the subscriber's stream (every event type, as a full client) and waits for its first block event. */
  async open(): Promise<void> {
    this.stream = await openSse(`${this.service.url}/events`, {}, (event) => {
      const at = performance.now();
      if (event.event === 'block') {
        const { block } = JSON.parse(event.data) as { block: number };
        // A block event says every event up to that block was sent: it announces each block since the last one.
        if (this.streamHead >= 0) for (let n = this.streamHead + 1; n <= block; n++) this.streamed.set(n, at);
        this.streamHead = Math.max(this.streamHead, block);
      } else if (event.event === 'launch') {
        const { token, block } = JSON.parse(event.data) as { token: string; block: number };
        const key = token.toLowerCase();
        this.launches.set(key, { block, at });
        this.launchWaiters.get(key)?.();
      }
    });
    if (!this.stream.response.ok) throw new Error(`GET /events answered ${this.stream.response.status}`);
    await within(
      (async () => {
        while (this.streamHead < 0) await sleep(5);
      })(),
      'the event stream opening',
    );
  }

  /** The next block produced. */
  nextBlock(): Promise<number> {
    return new Promise((resolve) => {
      const waiter = (block: number) => {
        this.blockWaiters.delete(waiter);
        resolve(block);
      };
      this.blockWaiters.add(waiter);
    });
  }

  /** Resolves when the subscriber has the launch of `token`. */
  launchHeard(token: Address): Promise<{ block: number; at: number }> {
    const key = token.toLowerCase();
    return new Promise((resolve) => {
      const done = () => {
        this.launchWaiters.delete(key);
        resolve(this.launches.get(key) as { block: number; at: number });
      };
      if (this.launches.has(key)) done();
      else this.launchWaiters.set(key, done);
    });
  }

  /** The indexer's read of the logs of the batch that stored `block` (its last try before the block was stored). */
  logsReadOf(block: number): LogsRead | undefined {
    const stored = this.stored.get(block);
    return this.logsReads.findLast(
      (read) => read.from <= block && block <= read.to && (stored === undefined || read.answered <= stored),
    );
  }

  close(): void {
    this.unsubscribe();
    this.restoreRequest();
    this.stream?.close();
  }

  /**
   * Times the indexer's eth_getLogs (the one over the service's contracts, the factory among them) by wrapping the
   * connected chain's client from outside: the indexer calls `client.request` on it at each read. Returns the undo.
   */
  private timeIndexerLogs(): () => void {
    type Request = (args: { method: string; params?: unknown }, options?: unknown) => Promise<unknown>;
    const client = this.service.chain.client as unknown as { request: Request };
    const original = client.request;
    const factory = this.service.chain.addresses.factory?.toLowerCase();
    const reads = this.logsReads;
    client.request = async (args, options) => {
      const filter =
        args.method === 'eth_getLogs'
          ? (args.params as [{ address?: unknown; fromBlock?: string; toBlock?: string }] | undefined)?.[0]
          : undefined;
      const addresses = Array.isArray(filter?.address) ? (filter.address as unknown[]) : [];
      if (!filter || !addresses.some((address) => String(address).toLowerCase() === factory)) {
        return original.call(client, args, options);
      }
      const sent = performance.now();
      const result = await original.call(client, args, options);
      reads.push({ from: Number(filter.fromBlock), to: Number(filter.toBlock), sent, answered: performance.now() });
      return result;
    };
    return () => {
      client.request = original;
    };
  }
}

async function measure(dataDir: string): Promise<Row[]> {
  const { service, devnet } = await startAtBscCadence(dataDir);
  const observer = new Observer(service);
  try {
    await observer.open();
    const rpc = rpcEndpoint(`${service.origin}/rpc`);
    const reads = createPublicClient({ chain: devnetChain, transport: custom(devnet.provider) }) as PublicClient;
    const signers = devnet.accounts.map((account) => new LocalSigner(account.privateKey, devnet.chainId));
    await Promise.all(signers.map((signer) => signer.sync(rpc)));
    const random = seededRandom(26);

    const launched = await launchPhase(devnet, observer, rpc, reads, signers, random);
    const rows = launched.rows;
    const tokens = launched.tokens.slice(0, TRADED_TOKENS);
    const contracts: SwapContracts = devnet.contracts;
    const balances = await setUpTraders(devnet, rpc, reads, signers, contracts, tokens);
    // The quoted pool is read once before the clock starts, as a running service would have it cached.
    await quoteOnce(service, tokens[0] as Address);

    const quotes: QuoteSample[] = [];
    for (const perBlock of SWAPS_PER_BLOCK) {
      rows.push(
        ...(await trafficPhase(
          { service, devnet, observer, rpc, reads, signers, contracts, tokens, balances, random, quotes },
          perBlock,
        )),
      );
    }
    rows.push(...(await quoteAges(reads, devnet, quotes)));
    return rows;
  } finally {
    observer.close();
    await within(service.close(), 'closing the service');
  }
}

/** Row 1 and row 2, and where the time of row 1 goes. */
async function launchPhase(
  devnet: Devnet,
  observer: Observer,
  rpc: RpcEndpoint,
  reads: PublicClient,
  signers: readonly LocalSigner[],
  random: () => number,
): Promise<{ rows: Row[]; tokens: Address[] }> {
  const { factory, wbnb } = devnet.contracts;
  const plans = launcher(
    { accounts: devnet.accounts, contracts: { factory, wbnb }, transport: custom(devnet.provider) },
    reads,
  );
  const total = LAUNCH_WARM_UP + LAUNCHES;
  const planned: { creator: number; token: Address; call: Call }[] = [];
  for (let i = 0; i < total; i++) {
    const creator = 2 + (i % 8);
    const plan = await plans.plan({ creator, saltSeed: `bsc-cadence-${i}` });
    const data = encodeFunctionData({ abi: LaunchFactory.abi, functionName: 'launch', args: [plan.params] as never });
    planned.push({ creator, token: plan.token, call: { to: factory, data, gas: 0n } });
  }
  // One estimate, for gas given explicitly to every launch (they differ only in salt and creator).
  const first = planned[0];
  if (!first) throw new Error('no launch planned');
  const estimate = BigInt(
    await rpc.call<Hex>('eth_estimateGas', [
      { from: signers[first.creator]?.address, to: factory, data: first.call.data },
    ]),
  );
  const gas = (estimate * 13n) / 10n;
  const fee = await maxFee(reads);

  const firstBlock = (await observer.nextBlock()) + 1;
  const toSubscriber: number[] = [];
  const launchBlocks: number[] = [];
  for (const [i, launch] of planned.entries()) {
    const signer = signers[launch.creator];
    if (!signer) throw new Error(`no test account ${launch.creator}`);
    const raw = await signer.sign({ ...launch.call, gas }, fee);
    await observer.nextBlock();
    await sleep(LAUNCH_SEND_MS[0] + random() * (LAUNCH_SEND_MS[1] - LAUNCH_SEND_MS[0]));
    await rpc.call<Hex>('eth_sendRawTransaction', [raw]);
    const heard = await within(observer.launchHeard(launch.token), `launch ${i} reaching the subscriber`, 15_000);
    const made = observer.made.get(heard.block);
    if (made === undefined) throw new Error(`launch ${i}: block ${heard.block} was not seen produced`);
    if (i < LAUNCH_WARM_UP) continue;
    toSubscriber.push(heard.at - made);
    launchBlocks.push(heard.block);
  }
  // The last block's stream event and store have come in before the figures are read.
  await observer.nextBlock();
  const lastBlock = await observer.nextBlock();

  // Row 2: every block of the phase, launch or empty.
  const toBlockEvent: number[] = [];
  const toStored: number[] = [];
  for (let block = firstBlock; block < lastBlock; block++) {
    const made = observer.made.get(block);
    const streamed = observer.streamed.get(block);
    const stored = observer.stored.get(block);
    if (made === undefined || streamed === undefined || stored === undefined) {
      throw new Error(`block ${block}: produced, stored or streamed not seen`);
    }
    toBlockEvent.push(streamed - made);
    toStored.push(stored - made);
  }

  // Where row 1's time goes, launch block by launch block.
  const launchStages = whereTimeGoes(
    observer,
    launchBlocks.map((block, i) => ({
      block,
      delivered: (observer.made.get(block) as number) + (toSubscriber[i] as number),
    })),
    'launch blocks, where the time goes (p50)',
  );

  const n = toSubscriber.length;
  const launchRow = `block produced -> its launch at a GET /events subscriber (SSE over loopback HTTP), ${BLOCK_MS} ms blocks`;
  const blockRow = `block produced -> its block event at the GET /events subscriber, ${BLOCK_MS} ms blocks`;
  const rows: Row[] = [
    {
      name: `${launchRow}, p50 of ${n}`,
      value: ms(percentile(toSubscriber, 50)),
      unit: 'ms',
      target: { op: '<', value: BLOCK_MS },
    },
    { name: `${launchRow}, p95`, value: ms(percentile(toSubscriber, 95)), unit: 'ms' },
    { name: `${launchRow}, max`, value: ms(max(toSubscriber)), unit: 'ms' },
    { name: `${launchRow}, p50 in blocks`, value: blocks(percentile(toSubscriber, 50)), unit: 'blocks' },
    { name: `${launchRow}, p95 in blocks`, value: blocks(percentile(toSubscriber, 95)), unit: 'blocks' },
    { name: `${launchRow}, max in blocks`, value: blocks(max(toSubscriber)), unit: 'blocks' },
    ...launchStages,
    { name: `${blockRow}, p50 of ${toBlockEvent.length}`, value: ms(percentile(toBlockEvent, 50)), unit: 'ms' },
    {
      name: `${blockRow}, p95`,
      value: ms(percentile(toBlockEvent, 95)),
      unit: 'ms',
      target: { op: '<', value: BLOCK_MS },
    },
    { name: `${blockRow}, max`, value: ms(max(toBlockEvent)), unit: 'ms' },
    {
      name: 'block produced -> stored by the in-process indexer (indexer.waitFor), p95',
      value: ms(percentile(toStored, 95)),
      unit: 'ms',
    },
  ];
  return { rows, tokens: planned.map((launch) => launch.token) };
}

/**
 * Where the time from a block produced to a delivery at the subscriber goes, p50 of each stage over `items`: until
 * the indexer's eth_getLogs of the block is sent (its pass starting, the devnet's lock), that read, the rest of the
 * batch (headers, prices, the SQLite write, the frames handed to the streams' sockets), and the way to the subscriber.
 */
function whereTimeGoes(
  observer: Observer,
  items: readonly { block: number; delivered: number }[],
  label: string,
): Row[] {
  const stages = { wait: [] as number[], logs: [] as number[], store: [] as number[], deliver: [] as number[] };
  for (const { block, delivered } of items) {
    const made = observer.made.get(block);
    const stored = observer.stored.get(block);
    const read = observer.logsReadOf(block);
    if (made === undefined || stored === undefined || read === undefined) continue;
    stages.wait.push(read.sent - made);
    stages.logs.push(read.answered - read.sent);
    stages.store.push(stored - read.answered);
    stages.deliver.push(delivered - stored);
  }
  const p50 = (samples: readonly number[]) => ms(percentile(samples, 50));
  return [
    {
      name: `${label}: block produced -> the indexer's eth_getLogs sent (its pass starting, the devnet's lock)`,
      value: p50(stages.wait),
      unit: 'ms',
    },
    { name: `${label}: the indexer's eth_getLogs`, value: p50(stages.logs), unit: 'ms' },
    {
      name: `${label}: logs answered -> batch stored, frames written to the stream`,
      value: p50(stages.store),
      unit: 'ms',
    },
    { name: `${label}: written -> read by the subscriber`, value: p50(stages.deliver), unit: 'ms' },
  ];
}

/** Each trader buys every traded token and lets the router sell it; returns what each holds of each token. */
async function setUpTraders(
  devnet: Devnet,
  rpc: RpcEndpoint,
  reads: PublicClient,
  signers: readonly LocalSigner[],
  contracts: SwapContracts,
  tokens: readonly Address[],
): Promise<bigint[][]> {
  await Promise.all(signers.map((signer) => signer.sync(rpc)));
  const fee = await maxFee(reads);
  const raws: Hex[] = [];
  for (const signer of signers) {
    for (const token of tokens) {
      raws.push(await signer.sign(buyCall(contracts, token, SETUP_BUY), fee));
      for (const call of allowRouterCalls(contracts, token)) raws.push(await signer.sign(call, fee));
    }
  }
  const hashes = await sendAll(rpc, raws);
  await within(Promise.all(hashes.map((hash) => devnet.included(hash))), 'the traders set up');
  for (const hash of hashes) {
    const receipt = await reads.getTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new Error(`a trader's set-up transaction ${hash} reverted`);
  }
  return Promise.all(
    signers.map((signer) =>
      Promise.all(
        tokens.map((token) =>
          reads.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [signer.address] }),
        ),
      ),
    ),
  );
}

interface Traffic {
  service: RunningService;
  devnet: Devnet;
  observer: Observer;
  rpc: RpcEndpoint;
  reads: PublicClient;
  signers: readonly LocalSigner[];
  contracts: SwapContracts;
  tokens: readonly Address[];
  /** What each trader held of each token after the set-up. */
  balances: readonly (readonly bigint[])[];
  random: () => number;
  /** Where the phase adds the quotes it took. */
  quotes: QuoteSample[];
}

interface QuoteSample {
  token: Address;
  /** Asked as soon as the bench heard of a block (the worst moment: the quote engine is catching up with it). */
  atBlock: boolean;
  /** The newest block produced when the quote was asked. */
  head: number;
  /** What the pool leg was quoted on: the BNB in after the site fee, and the tokens out. */
  amountIn: bigint;
  receive: bigint;
  latencyMs: number;
}

/** Row 3 for `perBlock` swaps a block; row 4's quotes are taken meanwhile. */
async function trafficPhase(t: Traffic, perBlock: number): Promise<Row[]> {
  const { observer, signers, contracts, tokens, random } = t;
  if (signers.length < perBlock) throw new Error(`${perBlock} swaps a block need ${perBlock} test accounts`);
  await Promise.all(signers.map((signer) => signer.sync(t.rpc)));
  const fee = await maxFee(t.reads);
  const slots = TRAFFIC_WARM_UP + TRAFFIC_BLOCKS;
  // Signed before the clock starts: the load only sends while it runs.
  const signed: Hex[][] = [];
  for (let slot = 0; slot < slots; slot++) {
    const raws: Hex[] = [];
    for (let trader = 0; trader < perBlock; trader++) {
      const which = trader === 0 ? 0 : Math.floor(random() * tokens.length);
      const token = tokens[which] as Address;
      const held = t.balances[trader]?.[which] ?? 0n;
      const call =
        random() < 0.6
          ? buyCall(contracts, token, parseEther((0.005 + random() * 0.045).toFixed(6)))
          : // At most 0.8% of what the trader held after the set-up: a phase never sells more than it has.
            sellCall(contracts, token, (held * BigInt(1 + Math.floor(random() * 8))) / 1000n);
      raws.push(await (signers[trader] as LocalSigner).sign(call, fee));
    }
    signed.push(raws);
  }

  const slotBlocks: number[] = [];
  const sent: { slot: number; hash: Hex; asked: number }[] = [];
  const sendFailures: string[] = [];
  const pending: Promise<unknown>[] = [];
  const quotes: QuoteSample[] = [];
  const quotedToken = tokens[0] as Address;
  for (let slot = 0; slot < slots; slot++) {
    slotBlocks.push(await observer.nextBlock());
    pending.push(quoteSample(t.service, observer, quotedToken, true).then((sample) => quotes.push(sample)));
    for (const raw of signed[slot] as Hex[]) {
      pending.push(
        sleep(random() * SWAP_SEND_WINDOW_MS)
          .then(async () => {
            const asked = performance.now();
            return { hash: await t.rpc.call<Hex>('eth_sendRawTransaction', [raw]), asked };
          })
          .then(
            (done) => sent.push({ slot, ...done }),
            (error: Error) => sendFailures.push(error.message),
          ),
      );
    }
    for (let q = 0; q < QUOTES_PER_BLOCK; q++) {
      pending.push(
        sleep(random() * BLOCK_MS)
          .then(() => quoteSample(t.service, observer, quotedToken, false))
          .then((sample) => quotes.push(sample)),
      );
    }
  }
  await within(Promise.all(pending), `the ${perBlock}-swap load's sends, samples and quotes`);
  await observer.nextBlock();
  await observer.nextBlock();
  if (sendFailures.length > 0) throw new Error(`${sendFailures.length} swaps were refused: ${sendFailures[0]}`);
  await within(Promise.all(sent.map(({ hash }) => t.devnet.included(hash))), `the ${perBlock}-swap load mined`);
  const receipts = await Promise.all(sent.map(({ hash }) => t.reads.getTransactionReceipt({ hash })));

  const measured = (slot: number) => slot >= TRAFFIC_WARM_UP;
  // The block each slot's swaps were sent for: the one after the block that started the slot.
  const targets = new Set(slotBlocks.filter((_, slot) => measured(slot)).map((block) => block + 1));
  let landed = 0;
  let late = 0;
  let askedLate = 0;
  let reverted = 0;
  for (const [i, receipt] of receipts.entries()) {
    const { slot } = sent[i] as { slot: number };
    const block = Number(receipt.blockNumber);
    if (receipt.status !== 'success') {
      if (measured(slot)) reverted++;
      continue;
    }
    if (targets.has(block)) landed++;
    if (measured(slot) && block !== (slotBlocks[slot] as number) + 1) {
      late++;
      // The load generator's own fault when it asked only after the block was made (its timer ran late).
      const meant = observer.made.get((slotBlocks[slot] as number) + 1);
      if (meant !== undefined && (sent[i]?.asked ?? 0) >= meant) askedLate++;
    }
  }
  const perBlockLanded = landed / targets.size;
  // The lag over the measured blocks, from the first one produced to the one after the last.
  const firstTarget = Math.min(...targets);
  const lastTarget = Math.max(...targets);
  const window = { from: observer.made.get(firstTarget), to: observer.made.get(lastTarget + 1) };
  if (window.from === undefined || window.to === undefined) throw new Error('the measured blocks were not all seen');
  const indexLag = lagOver(observer.made, observer.stored, window.from, window.to);
  const streamLag = lagOver(observer.made, observer.streamed, window.from, window.to);
  const toStored: number[] = [];
  const toBlockEvent: number[] = [];
  for (let block = firstTarget; block <= lastTarget; block++) {
    const made = observer.made.get(block);
    const stored = observer.stored.get(block);
    const streamed = observer.streamed.get(block);
    if (made === undefined || stored === undefined || streamed === undefined) {
      throw new Error(`block ${block}: produced, stored or streamed not seen`);
    }
    toStored.push(stored - made);
    toBlockEvent.push(streamed - made);
  }
  t.quotes.push(...quotes.filter((quote) => quote.head >= (slotBlocks[TRAFFIC_WARM_UP] as number)));

  const label = `traffic ${perBlock} swap${perBlock === 1 ? '' : 's'}/block`;
  const heaviest = perBlock === Math.max(...SWAPS_PER_BLOCK);
  const stages = heaviest
    ? whereTimeGoes(
        observer,
        [...targets].map((block) => ({ block, delivered: observer.streamed.get(block) as number })),
        `${label}, block event, where the time goes (p50)`,
      )
    : [];
  const shortfall =
    perBlockLanded < perBlock * 0.95 ? '; the load generator could not keep up, the figures below are for less' : '';
  const misses =
    late + reverted > 0
      ? ` (${late} landed a block late, ${askedLate} of them sent only after their block was made; ${reverted} reverted)`
      : '';
  return [
    {
      name: `${label}: swaps landed per block, mean of ${targets.size} blocks${misses}${shortfall}`,
      value: round2(perBlockLanded),
      unit: 'swaps',
      target: { op: '>=', value: perBlock * 0.95 },
    },
    {
      name: `${label}: indexer lag (newest block produced minus indexed block), mean over the ${targets.size} blocks' time`,
      value: round3(indexLag.mean),
      unit: 'blocks',
    },
    {
      name: `${label}: indexer lag, max (1: only ever the block just produced)`,
      value: indexLag.max,
      unit: 'blocks',
      target: { op: '<=', value: 1 },
    },
    {
      name: `${label}: GET /events lag (newest block produced minus the subscriber's last block event), mean`,
      value: round3(streamLag.mean),
      unit: 'blocks',
    },
    { name: `${label}: GET /events lag, max`, value: streamLag.max, unit: 'blocks', target: { op: '<=', value: 1 } },
    {
      name: `${label}: block produced -> stored by the indexer, p95 of ${toStored.length}`,
      value: ms(percentile(toStored, 95)),
      unit: 'ms',
    },
    {
      name: `${label}: block produced -> its block event at the subscriber, p95 of ${toBlockEvent.length}`,
      value: ms(percentile(toBlockEvent, 95)),
      unit: 'ms',
      target: { op: '<', value: BLOCK_MS },
    },
    ...stages,
  ];
}

/** GET /quote for a buy of QUOTE_BNB, with the newest block produced when it was asked. */
async function quoteSample(
  service: RunningService,
  observer: Observer,
  token: Address,
  atBlock: boolean,
): Promise<QuoteSample> {
  const head = observer.head;
  const started = performance.now();
  const answer = await quoteOnce(service, token);
  return {
    token,
    atBlock,
    head,
    amountIn: BigInt(answer.pay.wei) - BigInt(answer.siteFee.wei),
    receive: BigInt(answer.receive.wei),
    latencyMs: performance.now() - started,
  };
}

interface QuoteAnswer {
  pay: { wei: string };
  receive: { wei: string };
  siteFee: { wei: string };
}

async function quoteOnce(service: RunningService, token: Address): Promise<QuoteAnswer> {
  const response = await fetch(`${service.url}/quote?token=${token}&side=buy&amount=${QUOTE_BNB}`);
  if (!response.ok) throw new Error(`GET /quote answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as QuoteAnswer;
}

/**
 * Row 4: for each quote, the newest block whose pool state gives the same figure through QuoterV2 (the pool leg of a
 * buy: the BNB in after the site fee, the tokens out), from the block after the head it was asked at down to
 * QUOTE_LOOKBACK below. The traffic trades the quoted token in every block, so consecutive states differ.
 */
async function quoteAges(reads: PublicClient, devnet: Devnet, quotes: readonly QuoteSample[]): Promise<Row[]> {
  const { quoter, wbnb } = devnet.contracts;
  const quoted = new Map<string, Promise<bigint | null>>();
  const quoterAt = (sample: QuoteSample, block: number) => {
    const key = `${sample.token}:${sample.amountIn}:${block}`;
    let answer = quoted.get(key);
    if (!answer) {
      answer = reads
        .simulateContract({
          address: quoter,
          abi: QuoterV2.abi,
          functionName: 'quoteExactInputSingle',
          args: [
            {
              tokenIn: wbnb,
              tokenOut: sample.token,
              amountIn: sample.amountIn,
              fee: LAUNCH_FEE,
              sqrtPriceLimitX96: 0n,
            },
          ],
          blockNumber: BigInt(block),
        })
        .then(
          ({ result }) => result[0],
          () => null,
        );
      quoted.set(key, answer);
    }
    return answer;
  };
  const newest = Number(await reads.getBlockNumber({ cacheTime: 0 }));
  const judged = await Promise.all(
    quotes.map(async (sample) => {
      let age: number | undefined;
      for (let block = Math.min(newest, sample.head + 1); block >= sample.head - QUOTE_LOOKBACK; block--) {
        if ((await quoterAt(sample, block)) === sample.receive) {
          // A block made while the quote was being answered counts as the head.
          age = Math.max(0, sample.head - block);
          break;
        }
      }
      // A stale state shows only where the pool moved: the head's state must differ from the block's before.
      const moved = (await quoterAt(sample, sample.head)) !== (await quoterAt(sample, sample.head - 1));
      return { sample, age, moved };
    }),
  );
  const rows: Row[] = [];
  const traffic = `under the traffic (${SWAPS_PER_BLOCK.join(', ')} swaps/block)`;
  for (const atBlock of [false, true]) {
    const group = judged.filter((j) => j.sample.atBlock === atBlock);
    const ages = group.flatMap((j) => (j.age === undefined ? [] : [j.age]));
    const moved = group.filter((j) => j.moved).length;
    const when = atBlock ? 'asked as the block is produced' : 'asked at random moments';
    rows.push(
      {
        name: `age in blocks of the pool state a GET /quote used, ${when} ${traffic}, p50 of ${ages.length} (the pool had moved in the head block for ${moved})`,
        value: percentile(ages, 50),
        unit: 'blocks',
      },
      { name: `age of the pool state a GET /quote used, ${when}, max`, value: max(ages), unit: 'blocks' },
      {
        name: `GET /quote ${when} ${traffic}, answered in p95 of ${group.length}`,
        value: ms(
          percentile(
            group.map((j) => j.sample.latencyMs),
            95,
          ),
        ),
        unit: 'ms',
      },
    );
  }
  rows.push({
    name: `quotes whose figure matched no pool state of the ${QUOTE_LOOKBACK} blocks under the head (QuoterV2)`,
    value: judged.filter((j) => j.age === undefined).length,
    unit: 'count',
    target: { op: '=', value: 0 },
  });
  return rows;
}

/** Sends signed transactions in JSON-RPC batches; their hashes in order, or the first refusal thrown. */
async function sendAll(rpc: RpcEndpoint, raws: readonly Hex[]): Promise<Hex[]> {
  const hashes: Hex[] = [];
  for (let i = 0; i < raws.length; i += BATCH) {
    const answers = await rpc.batch(
      raws.slice(i, i + BATCH).map((raw) => ({ method: 'eth_sendRawTransaction', params: [raw] })),
    );
    for (const answer of answers) {
      if ('error' in answer) throw new Error(`a transaction was refused: ${answer.error}`);
      hashes.push(answer.result as Hex);
    }
  }
  return hashes;
}

/** A fee cap well above the base fee, which the load's blocks (far under the gas target) only lower. */
async function maxFee(reads: PublicClient): Promise<bigint> {
  const block = await reads.getBlock({ blockTag: 'latest' });
  return (block.baseFeePerGas ?? 0n) * 4n + parseGwei('1') + TIP_WEI;
}

/**
 * How far `done` (stored, or announced on the stream) trails the blocks produced between `from` and `to`: at any
 * moment the lag is the number of blocks produced and not yet done, so its mean over the window is the sum of each
 * block's time not done (within the window) over the window's length, exactly, and its max is the most blocks not
 * done at once. A block never done counts until the window's end.
 */
function lagOver(
  made: ReadonlyMap<number, number>,
  done: ReadonlyMap<number, number>,
  from: number,
  to: number,
): { mean: number; max: number } {
  const changes: { at: number; by: number }[] = [];
  let area = 0;
  for (const [block, producedAt] of made) {
    const start = Math.max(producedAt, from);
    const end = Math.min(done.get(block) ?? to, to);
    if (end <= start) continue;
    area += end - start;
    changes.push({ at: start, by: 1 }, { at: end, by: -1 });
  }
  // At the same moment a block done goes before a block produced.
  changes.sort((a, b) => a.at - b.at || a.by - b.by);
  let lag = 0;
  let most = 0;
  for (const change of changes) {
    lag += change.by;
    most = Math.max(most, lag);
  }
  return { mean: area / (to - from), max: most };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const ms = (value: number) => Math.round(value * 10) / 10;
const blocks = (milliseconds: number) => round3(milliseconds / BLOCK_MS);
const round2 = (value: number) => Math.round(value * 100) / 100;
const round3 = (value: number) => Math.round(value * 1000) / 1000;

const within = deadlineFor('bsc-cadence', 60_000);
