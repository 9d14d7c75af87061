import { LRUCache } from 'lru-cache';
import {
  type Address,
  decodeFunctionResult,
  encodeFunctionData,
  getAbiItem,
  type Hash,
  type Hex,
  numberToHex,
  type PublicClient,
  parseEventLogs,
  toEventSelector,
} from 'viem';
import type { ChainContext } from '../chain/connectChain';
import { PoolReader } from '../chain/generated/contracts';
import { PancakeV3Pool } from '../chain/generated/vendor';
import { MAX_TICK, MIN_TICK } from '../core/math/tickMath';
import { applyPoolEvents, type PoolEvent, type TrackedPoolState, type TrackedTick } from '../core/swap/applyPoolEvents';
import type { PoolState } from '../core/swap/poolState';
import { chainRead } from './chainRead';

/** Bitmap words read in parallel at a time, so a pool with a fine tick spacing does not flood the RPC. */
const WORD_BATCH = 64;
/** Pools kept; beyond this the least recently quoted is dropped and read in full again if asked for. */
const MAX_POOLS = 2000;

/** The events that move what the swap engine reads; the pool's others (Collect, Flash, fee settings) leave it. */
const POOL_EVENTS = [
  getAbiItem({ abi: PancakeV3Pool.abi, name: 'Swap' }),
  getAbiItem({ abi: PancakeV3Pool.abi, name: 'Mint' }),
  getAbiItem({ abi: PancakeV3Pool.abi, name: 'Burn' }),
] as const;
const POOL_TOPICS = POOL_EVENTS.map((event) => toEventSelector(event));
/** A pool's events from its birth: Initialize first (the pool emits nothing before it), then what moves its state. */
const BIRTH_EVENTS = [getAbiItem({ abi: PancakeV3Pool.abi, name: 'Initialize' }), ...POOL_EVENTS] as const;
const BIRTH_TOPICS = BIRTH_EVENTS.map((event) => toEventSelector(event));
/** A pool priced at most this many blocks ago is read from its logs since then rather than in full. */
const FRESH_POOL_BLOCKS = 256n;

/**
 * Where a pool was priced, when that is known (a launch's block, from the index: the factory prices the pool in the
 * launch and refuses one priced before), with its fee and spacing, which its Initialize does not say.
 */
export interface PoolBirth {
  block: number;
  fee: number;
  tickSpacing: number;
}

interface BlockRef {
  number: bigint;
  hash: Hash;
  /** Its parent's hash, when the block was read whole: one block on from a known one needs no read of that one. */
  parentHash?: Hash;
}

/** Full reads asked for before their turn came: they run together, at one block. */
interface Admission {
  pools: Map<Address, PoolBirth | undefined>;
  read: Promise<Map<Address, PromiseSettledResult<TrackedPoolState>>>;
}

/**
 * Keeps each pool's state (price, liquidity, every initialized tick) for the quote engine. A pool is read in full
 * once, on first use; after that each new block brings every cached pool forward from the pools' own Swap, Mint and
 * Burn logs, fetched in one getLogs. When the chain cannot be followed that way (a reorg, the devnet reverted, a
 * failed read) every pool is forgotten and read in full again on next use, so no quote sees a half-applied state.
 *
 * Syncs and full reads run one at a time, in order, each inside the chain's consistent read. A get waits for the
 * latest sync asked for, so it never sees a state older than the block it came at; concurrent gets of a pool not yet
 * read share one read.
 */
export class PoolStateService {
  /** Cached states by lower-case address; a get makes a pool the most recently used, and the least is dropped first. */
  private readonly pools = new LRUCache<Address, TrackedPoolState>({ max: MAX_POOLS });
  /** The block every cached state is at. */
  private synced: BlockRef | undefined;
  /** The newest block the chain announced. */
  private announced: bigint | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  /** The latest sync asked for; never rejects. */
  private syncing: Promise<void> = Promise.resolve();
  private syncQueued = false;
  /** No sync is asked for or running: the cached states are those of the latest block announced. */
  private syncDone = true;
  /** The next full read, while it waits for its turn. */
  private admission: Admission | undefined;
  private readonly loading = new Map<Address, Promise<PoolState>>();

  constructor(private readonly chain: ChainContext) {
    chain.onBlock((block) => {
      if (this.announced === undefined || block > this.announced) this.announced = block;
      this.sync();
    });
  }

  /**
   * The pool's state as of the latest block announced, read in full if it is not cached: from its logs when `birth`
   * says it was priced only lately (one request, however fine its tick spacing), else with PoolReader.
   */
  async get(pool: Address, birth?: PoolBirth): Promise<PoolState> {
    const key = pool.toLowerCase() as Address;
    if (this.behindSeenHead()) this.sync();
    await this.syncing;
    const cached = this.pools.get(key);
    if (cached) return cached;
    let loading = this.loading.get(key);
    if (!loading) {
      const load = chainRead('the pool state', () => this.load(key, birth));
      loading = load;
      this.loading.set(key, load);
      load.then(
        () => this.loading.delete(key),
        () => this.loading.delete(key),
      );
    }
    return loading;
  }

  /**
   * The pool's state as `get` would give it, when that needs no waiting: cached, with no sync outstanding. Lets a
   * quote be answered in the same turn as its request, which is most of what a quote costs over a bare answer.
   */
  peek(pool: Address): PoolState | undefined {
    if (!this.syncDone || this.behindSeenHead()) return undefined;
    return this.pools.get(pool.toLowerCase() as Address);
  }

  /**
   * Whether the cached states are older than a block the service has already seen in some answer (over load-balanced
   * nodes, a receipt or a block can show a head before the chain's announcement of it comes): then a get syncs first,
   * so that no quote is older than what the service has seen.
   */
  private behindSeenHead(): boolean {
    const seen = this.chain.heads?.latest();
    return (
      this.syncDone &&
      this.synced !== undefined &&
      seen !== null &&
      seen !== undefined &&
      BigInt(seen) > this.synced.number
    );
  }

  /** Runs `work` after everything queued before it. */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work);
    this.queue = run.catch(() => {});
    return run;
  }

  /** Asks for a sync of every cached pool to the head; one waiting is enough, as it reads the head when it starts. */
  private sync(): void {
    if (this.syncQueued) return;
    this.syncQueued = true;
    this.syncDone = false;
    const syncing = this.exclusive(() =>
      this.chain.consistentRead(async () => {
        this.syncQueued = false;
        if (this.pools.size > 0) await this.follow(await this.head());
      }),
    ).catch(() => {
      this.syncQueued = false;
      this.forget();
    });
    this.syncing = syncing;
    syncing.then(() => {
      if (this.syncing === syncing) this.syncDone = true;
    });
  }

  /** Reads `pool` in full at the head, together with whatever other pools were asked for meanwhile. */
  private async load(pool: Address, birth: PoolBirth | undefined): Promise<PoolState> {
    let admission = this.admission;
    if (!admission) {
      const pools = new Map<Address, PoolBirth | undefined>();
      const read = this.exclusive(() => {
        this.admission = undefined;
        return this.chain.consistentRead(() => this.admit(pools));
      });
      admission = { pools, read };
      this.admission = admission;
    }
    admission.pools.set(pool, birth);
    const result = (await admission.read).get(pool);
    if (!result) throw new Error(`the read of ${pool} was lost`);
    if (result.status === 'rejected') throw result.reason;
    return result.value;
  }

  private async admit(
    asked: ReadonlyMap<Address, PoolBirth | undefined>,
  ): Promise<Map<Address, PromiseSettledResult<TrackedPoolState>>> {
    // The cached pools are at the newest block announced when a sync just ran (a pool asked for at a new block, as
    // a launch heard at the head is): read from there, without asking the chain for its head again.
    const synced = this.synced;
    const current = synced !== undefined && this.announced !== undefined && synced.number >= this.announced;
    const head = current ? synced : await this.head();
    // The cached pools come to the same block first, so that one getLogs keeps following them all.
    await this.follow(head);
    const pools = [...asked.keys()];
    const reads = await Promise.allSettled(
      pools.map(async (pool) => {
        const birth = asked.get(pool);
        const fresh = birth && head.number - BigInt(birth.block) <= FRESH_POOL_BLOCKS;
        const born = fresh
          ? await readPoolFromBirth(this.chain.client, pool, birth, head).catch(() => undefined)
          : undefined;
        return born ?? readPool(this.chain.client, pool, head.number);
      }),
    );
    const results = new Map<Address, PromiseSettledResult<TrackedPoolState>>();
    pools.forEach((pool, i) => {
      const read = reads[i] as PromiseSettledResult<TrackedPoolState>;
      results.set(pool, read);
      if (read.status === 'fulfilled') this.pools.set(pool, read.value);
    });
    this.synced = head;
    return results;
  }

  /** Brings every cached pool to `head` from their logs, or forgets them all when that cannot be done safely. */
  private async follow(head: BlockRef): Promise<void> {
    const from = this.synced;
    if (!from || this.pools.size === 0) return;
    let updated: Map<Address, TrackedPoolState> | undefined;
    try {
      updated = await this.replay(from, head);
    } catch {
      updated = undefined;
    }
    if (!updated) return this.forget();
    for (const [pool, state] of updated) this.pools.set(pool, state);
    this.synced = head;
  }

  /**
   * The cached pools' states at `head`, from the Swap, Mint and Burn logs after `from`; undefined when `from` is no
   * longer on the chain (a reorg, or the devnet reverted to a snapshot) or a log cannot be trusted. Throws a
   * RangeError if an event does not fit the state.
   */
  private async replay(from: BlockRef, head: BlockRef): Promise<Map<Address, TrackedPoolState> | undefined> {
    const updated = new Map<Address, TrackedPoolState>();
    if (head.number < from.number) return undefined;
    if (head.number === from.number) return head.hash === from.hash ? updated : undefined;
    const { client } = this.chain;
    // One block on, the head's parent says whether `from` is still the chain's; further, `from` is read again.
    const linked = head.number === from.number + 1n && head.parentHash === from.hash;
    if (!linked && (await client.getBlock({ blockNumber: from.number })).hash !== from.hash) return undefined;
    const logs = await orderedPoolLogs(
      client,
      { address: [...this.pools.keys()], topics: POOL_TOPICS, fromBlock: from.number + 1n },
      head,
    );
    if (!logs) return undefined;
    const events = new Map<Address, PoolEvent[]>();
    for (const log of logs) {
      // Not asked for: a pool the service follows was priced long ago.
      if (log.eventName === 'Initialize') return undefined;
      const pool = log.address.toLowerCase() as Address;
      const list = events.get(pool) ?? [];
      events.set(pool, list);
      list.push(poolEventOf(log));
    }
    for (const [pool, list] of events) {
      // peek: reading every pool with a log would make them all recently used, whether quoted or not.
      const state = this.pools.peek(pool);
      if (!state) return undefined;
      updated.set(pool, applyPoolEvents(state, list));
    }
    return updated;
  }

  private forget(): void {
    this.pools.clear();
    this.synced = undefined;
  }

  private async head(): Promise<BlockRef> {
    const block = await this.chain.client.getBlock({ blockTag: 'latest' });
    return { number: block.number, hash: block.hash, parentHash: block.parentHash };
  }
}

type PoolLog = ReturnType<typeof parseEventLogs<typeof BIRTH_EVENTS>>[number];

/**
 * The pools' logs of `topics` from `fromBlock` to `head`, in the order they were emitted; undefined when one did not
 * decode, was removed, or belongs to another block at the head's height (the range moved under the read).
 */
async function orderedPoolLogs(
  client: PublicClient,
  filter: { address: Address | Address[]; topics: readonly Hex[]; fromBlock: bigint },
  head: BlockRef,
): Promise<PoolLog[] | undefined> {
  const raw = await client.request({
    method: 'eth_getLogs',
    params: [
      {
        address: filter.address,
        topics: [[...filter.topics]],
        fromBlock: numberToHex(filter.fromBlock),
        toBlock: numberToHex(head.number),
      },
    ],
  });
  const logs = parseEventLogs({ abi: BIRTH_EVENTS, logs: raw, strict: true });
  if (logs.length !== raw.length) return undefined;
  for (const log of logs) {
    if (log.removed || log.blockNumber === null || log.logIndex === null) return undefined;
    if (log.blockNumber === head.number && log.blockHash !== head.hash) return undefined;
  }
  return logs.sort((a, b) =>
    a.blockNumber === b.blockNumber ? (a.logIndex ?? 0) - (b.logIndex ?? 0) : a.blockNumber < b.blockNumber ? -1 : 1,
  );
}

/** What a Swap, Mint or Burn log tells of the pool's state. */
function poolEventOf(log: Exclude<PoolLog, { eventName: 'Initialize' }>): PoolEvent {
  if (log.eventName === 'Swap') {
    const { sqrtPriceX96, tick, liquidity } = log.args;
    return { kind: 'swap', sqrtPriceX96, tick, liquidity };
  }
  const { tickLower, tickUpper, amount } = log.args;
  return { kind: log.eventName === 'Mint' ? 'mint' : 'burn', tickLower, tickUpper, amount };
}

/**
 * The state at `head` of a pool priced in `birth.block`, from its own logs since then: its Initialize, then every
 * Swap, Mint and Burn applied in order. Undefined when the logs do not start with that Initialize (the birth was not
 * this pool's) or do not belong to `head`'s chain, for the caller to read the pool in full instead.
 */
export async function readPoolFromBirth(
  client: PublicClient,
  address: Address,
  birth: PoolBirth,
  head: BlockRef,
): Promise<TrackedPoolState | undefined> {
  const logs = await orderedPoolLogs(client, { address, topics: BIRTH_TOPICS, fromBlock: BigInt(birth.block) }, head);
  if (!logs) return undefined;
  const [first, ...rest] = logs;
  if (first?.eventName !== 'Initialize' || first.blockNumber !== BigInt(birth.block)) return undefined;
  const events: PoolEvent[] = [];
  for (const log of rest) {
    if (log.eventName === 'Initialize') return undefined;
    events.push(poolEventOf(log));
  }
  const priced: TrackedPoolState = {
    sqrtPriceX96: first.args.sqrtPriceX96,
    tick: first.args.tick,
    liquidity: 0n,
    fee: birth.fee,
    tickSpacing: birth.tickSpacing,
    ticks: [],
  };
  return applyPoolEvents(priced, events);
}

/**
 * slot0, liquidity and every initialized tick of `address`, all as of `blockNumber`: in one eth_call running
 * PoolReader without deploying it, or, where a node refuses that call (a gas cap below what a fine tick spacing
 * needs), one call per value.
 */
async function readPool(client: PublicClient, address: Address, blockNumber: bigint): Promise<TrackedPoolState> {
  try {
    return await readPoolAtOnce(client, address, blockNumber);
  } catch {
    return readPoolByCalls(client, address, blockNumber);
  }
}

/** The pool's state from PoolReader, sent as code with the call (a deployless read): one request, one EVM run. */
export async function readPoolAtOnce(
  client: PublicClient,
  address: Address,
  blockNumber: bigint,
): Promise<TrackedPoolState> {
  const call = { abi: PoolReader.abi, functionName: 'read' } as const;
  const { data } = await client.call({
    code: PoolReader.bytecode,
    data: encodeFunctionData({ ...call, args: [address] }),
    blockNumber,
  });
  if (!data) throw new Error(`PoolReader answered nothing for ${address}`);
  const read = decodeFunctionResult({ ...call, data });
  return {
    sqrtPriceX96: read.sqrtPriceX96,
    tick: read.tick,
    liquidity: read.liquidity,
    fee: read.fee,
    tickSpacing: read.tickSpacing,
    ticks: read.ticks.map((index, i) => ({
      index,
      liquidityGross: read.liquidityGross[i] as bigint,
      liquidityNet: read.liquidityNet[i] as bigint,
    })),
  };
}

/** The pool's state read value by value: slot0 and the rest, each bitmap word, then each initialized tick. */
export async function readPoolByCalls(
  client: PublicClient,
  address: Address,
  blockNumber: bigint,
): Promise<TrackedPoolState> {
  const pool = { address, abi: PancakeV3Pool.abi, blockNumber } as const;
  const [slot0, liquidity, fee, tickSpacing] = await Promise.all([
    client.readContract({ ...pool, functionName: 'slot0' }),
    client.readContract({ ...pool, functionName: 'liquidity' }),
    client.readContract({ ...pool, functionName: 'fee' }),
    client.readContract({ ...pool, functionName: 'tickSpacing' }),
  ]);
  // The bitmap has one bit per usable tick (tick / spacing), 256 to a word.
  const firstWord = Math.floor(Math.ceil(MIN_TICK / tickSpacing) / 256);
  const lastWord = Math.floor(Math.floor(MAX_TICK / tickSpacing) / 256);
  const indexes: number[] = [];
  for (let start = firstWord; start <= lastWord; start += WORD_BATCH) {
    const words = Array.from({ length: Math.min(WORD_BATCH, lastWord - start + 1) }, (_, i) => start + i);
    const bitmaps = await Promise.all(
      words.map((word) => client.readContract({ ...pool, functionName: 'tickBitmap', args: [word] })),
    );
    words.forEach((word, i) => {
      let bits = bitmaps[i] ?? 0n;
      for (let bit = 0; bits !== 0n; bit++, bits >>= 1n) {
        if (bits & 1n) indexes.push((word * 256 + bit) * tickSpacing);
      }
    });
  }
  const ticks: TrackedTick[] = await Promise.all(
    indexes.map(async (index) => {
      const info = await client.readContract({ ...pool, functionName: 'ticks', args: [index] });
      return { index, liquidityGross: info[0], liquidityNet: info[1] };
    }),
  );
  return { sqrtPriceX96: slot0[0], tick: slot0[1], liquidity, fee, tickSpacing, ticks };
}
