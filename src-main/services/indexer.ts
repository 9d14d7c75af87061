import {
  type Address,
  BaseError,
  getAbiItem,
  type Hex,
  hexToBigInt,
  numberToHex,
  type PublicClient,
  RpcRequestError,
  toEventSelector,
} from 'viem';
import type { ChainContext, ServiceAddresses } from '../chain/connectChain';
import { PancakeV3Pool } from '../chain/generated/vendor';
import type { HeadTracker } from '../chain/headTracker';
import { saysNodeBehind } from '../chain/nodeBehind';
import { decodeServiceEvent, type RawLog, SERVICE_EVENT_TOPICS, type ServiceEvent } from '../chain/serviceEvents';
import { type Logger, silentLogger } from '../log/createLogger';
import type { IndexCounts, IndexCursor, IndexStore } from '../store/indexStore';
import { CoalescedRun } from './coalescedRun';

/** The parts of the connected chain the indexer uses. */
export type IndexerSource = Pick<ChainContext, 'client' | 'chainId' | 'deployBlock' | 'consistentRead'> &
  Partial<Pick<ChainContext, 'onBlock' | 'heads'>> & {
    addresses: Pick<ServiceAddresses, 'factory' | 'router' | 'referrals'>;
  };

export interface IndexerOptions {
  /** Blocks a block must have on top of it before its events are indexed (0 on the devnet). */
  confirmations: number;
  /**
   * Also count as confirmed every block the node calls `finalized` (BSC's fast finality, about two blocks behind the
   * head), where the node answers that tag; where it does not, `confirmations` alone decides. Off on the devnet.
   */
  finalized?: boolean;
  /** Largest block range asked of eth_getLogs; the range halves when the RPC refuses one and grows back after. */
  maxRange?: number;
  /** How often to look for new blocks when the chain does not announce them (milliseconds). */
  pollMs?: number;
  /** How often to log progress while backfilling (milliseconds). */
  progressEveryMs?: number;
  log?: Logger;
  /**
   * Reads the BNB dollar pool's sqrtPriceX96 at a block, to keep with the batch (null when it cannot be read): prices
   * at past blocks would later need an archive node. Asked only for a trade block whose price the pool's own events
   * do not tell (see `dollarPool`), which on a pruned node works only within its last 128 blocks.
   */
  priceAt?: (block: number) => Promise<bigint | null>;
  /**
   * The BNB dollar pool (null when there is none). Its Swap and Initialize events are read with the service's, and
   * each carries the pool's price after it, so a backfill knows the dollar price at every trade block without the
   * state of past blocks, which a free public node does not keep.
   */
  dollarPool?: () => Promise<Address | null>;
  /** Called after each batch is stored (tests and the benchmark follow the indexer with it). */
  onBatch?: (cursor: IndexCursor, events: number) => void;
  /** Called after a reorganization took the index back to `cursor`. */
  onRollBack?: (cursor: IndexCursor) => void;
}

export interface IndexerStatus {
  /** backfilling: more than one batch behind; following: keeping up with new blocks; retrying: the last try failed. */
  state: 'starting' | 'backfilling' | 'following' | 'retrying' | 'stopped';
  fromBlock: number;
  /** Every event up to and including this block is stored. */
  indexedBlock: number;
  /** The chain's latest block, when last seen. */
  chainHead: number | null;
  confirmations: number;
  /**
   * What makes a block confirmed now: `finalized`, the node's finalized block (BSC's fast finality) when it is newer
   * than `confirmations` blocks under the head; `blocks`, the block count (also where the node has no finalized tag).
   */
  confirmation: {
    by: 'finalized' | 'blocks';
    /** The node's finalized block, when it answers that tag (null: not asked, or not answered). */
    finalizedBlock: number | null;
    /** The newest confirmed block: events up to it are indexed. */
    confirmedBlock: number | null;
  };
  /** Blocks indexed since this run started. */
  blocksDone: number;
  /** Blocks between the indexed block and the newest confirmed one. */
  blocksLeft: number;
  /** Indexing rate over the last few seconds. */
  blocksPerSecond: number;
  eventsPerSecond: number;
  /** Block range of the next eth_getLogs. */
  range: number;
  reorgs: number;
  stored: IndexCounts;
  lastError: { message: string; at: string } | null;
}

interface Header {
  number: number;
  hash: Hex;
  parentHash: Hex;
  timestamp: number;
}

/** The chain changed under a batch (a log's block is not the block now at that height): the batch is read again. */
class ChainMoved extends Error {}

/** The RPC does not serve eth_getLogs: retried only after the longest pause, since it is a setting, not a hiccup. */
class NoLogs extends Error {}

/**
 * The node that answered lacks a block at or below a head already seen: it is behind (load-balanced nodes differ by a
 * block or two), not showing another chain. Retried soon and quietly; nothing is rolled back for it.
 */
class NodeBehind extends Error {}

/** The pool events that set its price: each carries sqrtPriceX96 (Swap's third data word, Initialize's first). */
const SWAP_TOPIC = toEventSelector(getAbiItem({ abi: PancakeV3Pool.abi, name: 'Swap' }));
const INITIALIZE_TOPIC = toEventSelector(getAbiItem({ abi: PancakeV3Pool.abi, name: 'Initialize' }));

/** The price a pool event leaves the pool at. */
function sqrtPriceOf(log: RawLog): bigint {
  const word = log.topics[0] === SWAP_TOPIC ? 2 : 0;
  return hexToBigInt(`0x${log.data.slice(2 + word * 64, 2 + (word + 1) * 64)}`);
}

/**
 * Why an eth_getLogs was refused, when a smaller range cannot help: the RPC does not serve the method at all (public
 * endpoints answer -32601 "method not found" or "eth_getLogs is disabled"), or it asks to slow down (429). Null for
 * anything else: a range too wide or an answer too large, in the many wordings providers use.
 */
export function logsRefusal(error: unknown): 'no-logs' | 'rate-limited' | null {
  let found: 'no-logs' | 'rate-limited' | null = null;
  const look = (e: unknown) => {
    const { code, status, message, details } = e as {
      code?: number;
      status?: number;
      message?: string;
      details?: string;
    };
    const text = `${message ?? ''} ${details ?? ''}`;
    if (
      code === -32601 ||
      /method not found|eth_getLogs\b.*\b(does not exist|not available)|getLogs is disabled/i.test(text)
    ) {
      found = 'no-logs';
    } else if (status === 429 || code === 429 || /too many requests|rate limit/i.test(text)) found ??= 'rate-limited';
    return false;
  };
  if (error instanceof BaseError) error.walk(look);
  else look(error);
  return found;
}

const DEFAULT_MAX_RANGE = 2_000;
/** The first range looked back over for the dollar pool's price at a trade block; it widens eightfold while empty. */
const FIRST_PRICE_WINDOW = 8;
/** How far back from a trade block the dollar pool's last price is looked for before the trade is left unpriced. */
const PRICE_LOOKBACK_BLOCKS = 200_000;
const GROW_AFTER_SUCCESSES = 3;
/** Batches after which a refused range size may be tried again (a limit on results, not blocks, may have passed). */
const CEILING_BATCHES = 200;
const MAX_RETRY_DELAY_MS = 30_000;
const RATE_WINDOW_MS = 10_000;
const FAILURE_LOG_EVERY_MS = 60_000;
/** Pause before asking again after a node behind answered; a node catches up within a block or two. */
const BEHIND_RETRY_MS = 150;
/** Nodes behind for longer than this are a failure like any other (logged, /status's last error). */
const BEHIND_QUIET_MS = 30_000;
/**
 * The most blocks short of the head a pass aims after nodes behind refused it: one block further back every second
 * retry. A balancer that deals requests out in strict turn to nodes a few blocks apart can refuse every pass that
 * needs the newest block twice (its logs, then its timestamp) for as long as the pass's requests line up the same
 * way; a pass that stops short reads only blocks every node has, and the next one aims at the head again.
 */
const MAX_BEHIND_STEP_BACK = 8;
/** How often the `finalized` tag is asked again of a node that did not answer it. */
const FINALIZED_PROBE_MS = 60_000;
/** A finalized block deeper than usual is asked again this many times in a pass, and in this many passes running. */
const FINALIZED_ASKS_AGAIN = 3;
const FINALIZED_DEEPER_PASSES = 3;

/**
 * Follows the service's contracts (factory, router, referral vault) and keeps their events in SQLite: eth_getLogs
 * in block ranges from the deploy block, then new blocks as they come. Each batch goes in with the cursor in one
 * transaction; before going on, the indexed block's hash is checked against the chain, and a reorganization rolls
 * back the orphaned blocks' rows (also in one transaction) and reads the new ones.
 */
export class Indexer {
  private cursor: IndexCursor = { block: -1, hash: null };
  /** The indexed block's time (Unix seconds), when this run has read its header. */
  private cursorTime: number | null = null;
  private readonly fromBlock: number;
  private readonly addresses: Address[];
  private range: number;
  private readonly maxRange: number;
  private successes = 0;
  /** Below the smallest range the RPC refused, for a while: growing back into a refusal every few batches wastes calls. */
  private ceiling = { range: Number.POSITIVE_INFINITY, batchesLeft: 0 };
  private head: number | null = null;
  /**
   * Over load-balanced nodes (an RPC URL), the highest head any node reported: a lower answer, or a block missing at
   * or below it, is a node behind. Null for one node (the devnet), whose lower head is the chain going back.
   */
  private readonly heads: HeadTracker | null;
  /** Since when the passes have met only nodes behind (null: the last pass did not). */
  private behindSince: number | null = null;
  /**
   * The highest finalized block the nodes reported, whether they answer the tag (null: not asked yet), and how far
   * below the head their finality usually is.
   */
  private finality: {
    answered: boolean | null;
    block: number | null;
    depth: number | null;
    /** Passes in a row whose finalized block was deeper than `depth`. */
    deeperPasses: number;
    askAgainAt: number;
  } = { answered: null, block: null, depth: null, deeperPasses: 0, askAgainAt: 0 };
  /** The last pass met a finalized block deeper than usual: the next comes shortly, not at the next block. */
  private lookAgainSoon = false;
  private confirmed: { block: number; by: 'finalized' | 'blocks' } | null = null;
  private readonly run = new CoalescedRun(() => this.pass());
  private failures = 0;
  /** The RPC answered this pass's head: it is reachable, and a later read that failed is retried soon. */
  private headReadThisPass = false;
  private lastFailureLog = Number.NEGATIVE_INFINITY;
  private retryTimer: NodeJS.Timeout | null = null;
  private pollTimer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;
  private state: IndexerStatus['state'] = 'starting';
  private lastError: IndexerStatus['lastError'] = null;
  private reorgs = 0;
  private counts: IndexCounts = { launches: 0, trades: 0, bindings: 0, collections: 0 };
  private readonly progress = {
    blocks: 0,
    samples: [] as { at: number; block: number; events: number }[],
    events: 0,
  };
  private lastProgressLog = 0;
  private backfillStart: { at: number; block: number } | null = null;
  private readonly waiters = new Set<{ block: number; resolve: () => void }>();
  /** The dollar pool's price at the indexed block, when this run's batches have seen it set (null: not known). */
  /** The dollar pool's price after the last trade block priced, and that block: where the next look back may stop. */
  private dollarPrice: { block: number; sqrtPriceX96: bigint } | null = null;
  private unpricedLogged = false;
  /** Retries in a row after a node behind answered (see retryPastNodeBehind). */
  private behindRetries = 0;
  private noLogsSaid = false;
  private readonly log: Logger;

  constructor(
    private readonly source: IndexerSource,
    private readonly store: IndexStore,
    private readonly options: IndexerOptions,
  ) {
    const { factory, router, referrals } = source.addresses;
    if (!factory || !router) throw new Error('the indexer needs the factory and the router deployed');
    this.addresses = [factory, router, ...(referrals ? [referrals] : [])];
    this.fromBlock = Number(source.deployBlock);
    this.log = options.log ?? silentLogger();
    this.heads = source.heads ?? null;
    this.maxRange = Math.max(1, options.maxRange ?? DEFAULT_MAX_RANGE);
    this.range = this.maxRange;
    this.cursor = store.open({
      chainId: source.chainId,
      factory,
      router,
      referrals: referrals ?? null,
      fromBlock: this.fromBlock,
    });
    this.counts = store.counts();
  }

  /** Starts following: at once, on every announced block, and every `pollMs`. */
  start(): void {
    this.unsubscribe = this.source.onBlock?.(() => this.poke()) ?? null;
    this.pollTimer = setInterval(() => this.poke(), this.options.pollMs ?? 4_000);
    this.pollTimer.unref();
    this.poke();
  }

  /** Stops after the batch under way (which is stored whole). */
  async stop(): Promise<void> {
    this.unsubscribe?.();
    if (this.pollTimer) clearInterval(this.pollTimer);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    await this.run.stop();
  }

  /** Looks for new blocks now (coalesced with a run under way). */
  poke(): void {
    this.run.poke();
  }

  /** Resolves once every event up to `block` is stored. */
  waitFor(block: number | bigint): Promise<void> {
    const target = Number(block);
    if (this.cursor.block >= target) return Promise.resolve();
    return new Promise((resolve) => {
      this.waiters.add({ block: target, resolve });
      this.poke();
    });
  }

  /** Every event up to and including this block is stored. */
  indexedBlock(): number {
    return this.cursor.block;
  }

  /** The indexed block and its time (null until this run has read its header), for jobs that follow the index. */
  indexedHead(): { block: number; hash: Hex | null; timestamp: number | null } {
    return { block: this.cursor.block, hash: this.cursor.hash, timestamp: this.cursorTime };
  }

  /** Runs until the newest confirmed block is indexed (used by tools that index and exit). */
  async catchUpOnce(): Promise<IndexCursor> {
    await this.catchUp();
    return this.cursor;
  }

  status(): IndexerStatus {
    const safe = this.confirmed?.block ?? null;
    const samples = this.progress.samples;
    const first = samples[0];
    const last = samples[samples.length - 1];
    const seconds = first && last && last.at > first.at ? (last.at - first.at) / 1000 : 0;
    return {
      state: this.run.isStopped ? 'stopped' : this.state,
      fromBlock: this.fromBlock,
      indexedBlock: this.cursor.block,
      chainHead: this.head,
      confirmations: this.options.confirmations,
      confirmation: {
        by: this.confirmed?.by ?? 'blocks',
        finalizedBlock: this.finality.answered ? this.finality.block : null,
        confirmedBlock: safe,
      },
      blocksDone: this.progress.blocks,
      blocksLeft: safe === null ? 0 : Math.max(0, safe - this.cursor.block),
      blocksPerSecond: seconds > 0 && first && last ? Math.round((last.block - first.block) / seconds) : 0,
      eventsPerSecond: seconds > 0 && first && last ? Math.round((last.events - first.events) / seconds) : 0,
      range: this.range,
      reorgs: this.reorgs,
      stored: { ...this.counts },
      lastError: this.lastError,
    };
  }

  /**
   * One catch-up; after a failure, a retry with growing pauses (and no more passes until then). The pauses grow only
   * while passes store nothing and the RPC cannot even tell the head: an RPC that fails now and then but lets a pass
   * move the cursor, or answers the head and fails a later read, is retried within a second, else a flapping RPC would
   * leave the index minutes behind a head it can read.
   */
  private async pass(): Promise<boolean> {
    const before = this.cursor.block;
    this.headReadThisPass = false;
    try {
      this.lookAgainSoon = false;
      await this.catchUp();
      this.failures = 0;
      this.behindSince = null;
      this.behindRetries = 0;
      if (this.lookAgainSoon) {
        this.retryTimer = setTimeout(() => this.poke(), BEHIND_RETRY_MS);
        this.retryTimer.unref();
      }
      return true;
    } catch (error) {
      if (this.run.isStopped) return false;
      if (error instanceof NodeBehind) {
        // An ordinary moment of load-balanced nodes: asked again soon, without a line in the log.
        this.behindSince ??= Date.now();
        if (Date.now() - this.behindSince < BEHIND_QUIET_MS) {
          this.behindRetries++;
          this.retryTimer = setTimeout(() => this.retryPastNodeBehind(), BEHIND_RETRY_MS);
          this.retryTimer.unref();
          return false;
        }
      } else this.behindSince = null;
      if (this.cursor.block > before) this.failures = 1;
      else this.failures = this.headReadThisPass ? Math.min(this.failures + 1, 2) : this.failures + 1;
      if (error instanceof NoLogs) this.failures = 11;
      const message = error instanceof Error ? error.message.split('\n')[0] || error.name : String(error);
      this.lastError = { message, at: new Date().toISOString() };
      this.state = 'retrying';
      const delay = Math.min(MAX_RETRY_DELAY_MS, 250 * 2 ** Math.min(this.failures, 10));
      // Every tenth failure in a row, and otherwise at most one line a minute: an RPC that flaps while the index
      // moves would log a line on each of its failures.
      const now = Date.now();
      // An RPC without eth_getLogs was said once, in its own line.
      const said = error instanceof NoLogs;
      if (!said && (this.failures % 10 === 0 || now - this.lastFailureLog >= FAILURE_LOG_EVERY_MS)) {
        this.lastFailureLog = now;
        this.log.warn(`indexer: ${message}; trying again in ${Math.round(delay / 100) / 10} s`);
      }
      this.retryTimer = setTimeout(() => this.poke(), delay);
      this.retryTimer.unref();
      return false;
    }
  }

  /**
   * Asks again after a node behind answered. A balancer that deals requests out in strict turn sends a pass of the same
   * requests to the same nodes each time, so every other retry first asks the head once more (which also tells the
   * head tracker what that node has): the pass then starts on the next node.
   */
  private retryPastNodeBehind(): void {
    if (this.behindRetries % 2 === 0) {
      this.poke();
      return;
    }
    this.source.client
      .request({ method: 'eth_blockNumber' })
      .then(
        (answered) => this.heads?.see(Number(answered)),
        () => {},
      )
      .finally(() => this.poke());
  }

  private async catchUp(): Promise<void> {
    const { client } = this.source;
    const [answered, finalized] = await Promise.all([
      client.request({ method: 'eth_blockNumber' }),
      this.finalizedBlock(),
    ]);
    // A node behind answers a lower head than another already did: the chain did not go back.
    this.heads?.see(Number(answered));
    const head = Math.max(Number(answered), this.heads?.latest() ?? 0);
    this.head = head;
    this.headReadThisPass = true;
    const byBlocks = head - this.options.confirmations;
    const confirmed = finalized !== null && finalized > byBlocks ? Math.min(finalized, head) : byBlocks;
    this.confirmed = { block: confirmed, by: confirmed === byBlocks ? 'blocks' : 'finalized' };
    const stepBack = Math.min(MAX_BEHIND_STEP_BACK, Math.floor(this.behindRetries / 2));
    const safe = Math.max(this.cursor.block, confirmed - stepBack);
    // Short of the head after nodes behind refused it: once these blocks are in, the head is tried again at once (with
    // nothing to read short of it, at the usual pace, so a balancer that keeps refusing is not asked in a tight loop).
    if (stepBack > 0 && this.cursor.block < safe) this.lookAgainSoon = true;
    if (this.cursor.block >= safe) {
      // Nothing new to read, but the indexed block may have been replaced (a reorganization at the same height or
      // a chain that went back).
      await this.source.consistentRead(() => this.checkCursor(head));
      this.state = 'following';
      return;
    }
    // The first catch-up of a fresh index is a backfill however short, so its start and end are in the log.
    if (!this.backfillStart && (safe - this.cursor.block > this.range || this.cursor.hash === null)) {
      this.backfillStart = { at: Date.now(), block: this.cursor.block };
      this.log.info(`indexer: backfilling blocks ${this.cursor.block + 1} to ${safe}`);
    }
    let moved = 0;
    while (!this.run.isStopped && this.cursor.block < safe) {
      this.state = safe - this.cursor.block > this.range ? 'backfilling' : 'following';
      try {
        await this.source.consistentRead(() => this.batch(this.cursor.block + 1, safe, head));
        moved = 0;
      } catch (error) {
        if (!(error instanceof ChainMoved)) throw error;
        // A chain that keeps moving under every read (or an RPC that contradicts itself) is retried with pauses.
        if (++moved > 3) throw error;
        await this.source.consistentRead(() => this.checkCursor(head));
      }
      this.reportProgress(safe);
    }
    this.state = 'following';
    if (this.backfillStart && this.cursor.block >= safe) {
      const seconds = (Date.now() - this.backfillStart.at) / 1000;
      const blocks = this.cursor.block - this.backfillStart.block;
      this.log.info(`indexer: caught up at block ${this.cursor.block} (${blocks} blocks in ${seconds.toFixed(1)} s)`);
      this.backfillStart = null;
    }
  }

  /** Reads and stores the events of blocks [from, ...], as many as the RPC accepts in one range up to `safe`. */
  private async batch(from: number, safe: number, head: number): Promise<void> {
    let to = Math.min(safe, from + this.range - 1);
    // A failed read of the pool's address fails the batch: reading on without it would leave a gap in prices.
    const pool = ((await this.options.dollarPool?.()) ?? null)?.toLowerCase() ?? null;
    let logs: RawLog[];
    for (;;) {
      try {
        logs = await this.logs(from, to);
        break;
      } catch (error) {
        // "block range extends beyond current head block": the node that answered is behind `to`, which another
        // reported; the range is fine.
        if (saysNodeBehind(error)) throw new NodeBehind(`the node that answered has no block ${to} yet`);
        // Providers refuse wide ranges or large answers in many wordings; a smaller range is the one remedy, except
        // for an RPC without eth_getLogs or one that asks to slow down.
        const refusal = logsRefusal(error);
        if (refusal === 'no-logs') throw this.noLogs(error);
        if (to === from || refusal === 'rate-limited') throw error;
        this.ceiling = { range: to - from, batchesLeft: CEILING_BATCHES };
        this.range = Math.max(1, Math.floor((to - from + 1) / 2));
        this.successes = 0;
        to = from + this.range - 1;
      }
    }
    if (this.ceiling.batchesLeft > 0 && --this.ceiling.batchesLeft === 0) this.ceiling.range = Number.POSITIVE_INFINITY;
    const largest = Math.min(this.maxRange, this.ceiling.range);
    if (++this.successes >= GROW_AFTER_SUCCESSES && this.range < largest) {
      this.range = Math.min(largest, this.range * 2);
      this.successes = 0;
    }

    const blocks = new Set<number>([from, to]);
    const serviceLogs: RawLog[] = [];
    for (const log of logs) {
      if (log.removed) throw new ChainMoved(`a log of block ${log.blockNumber} was removed`);
      serviceLogs.push(log);
      blocks.add(Number(log.blockNumber));
    }
    const headers = new Map<number, Header>();
    await Promise.all(
      [...blocks].map(async (number) => {
        const header = await this.header(number);
        // A block at or below the head that a node answers null: that node is behind (the block is not gone), or on
        // one node, the chain went back.
        if (!header && this.heads) {
          throw new NodeBehind(`the node that answered has no block ${number} yet (the head is ${head})`);
        }
        if (!header) throw new ChainMoved(`block ${number} is gone (the chain head is ${head})`);
        headers.set(number, header);
      }),
    );
    const first = headers.get(from) as Header;
    if (this.cursor.hash !== null && first.parentHash !== this.cursor.hash) {
      throw new ChainMoved(`block ${from} does not follow the indexed block ${this.cursor.block}`);
    }
    const events: ServiceEvent[] = [];
    for (const log of serviceLogs) {
      if (headers.get(Number(log.blockNumber))?.hash !== log.blockHash) {
        throw new ChainMoved(`block ${log.blockNumber} changed while it was read`);
      }
      const event = decodeServiceEvent(log);
      if (event) events.push(event);
    }
    const { prices, after } = await this.pricesOf(events, pool as Address | null);
    const timestamps = new Map<number, number>();
    const hashes = new Map<number, Hex>();
    for (const [number, header] of headers) {
      timestamps.set(number, header.timestamp);
      hashes.set(number, header.hash);
    }
    this.cursor = this.store.write({ events, timestamps, hashes, prices, to });
    this.dollarPrice = after;
    this.cursorTime = timestamps.get(to) ?? null;
    for (const event of events) {
      if (event.kind === 'launched') this.counts.launches++;
      else if (event.kind === 'trade') this.counts.trades++;
      else if (event.kind === 'bound') this.counts.bindings++;
      else if (event.kind === 'collected') this.counts.collections++;
    }
    this.progress.blocks += to - from + 1;
    this.progress.events += events.length;
    this.sample();
    this.options.onBatch?.(this.cursor, events.length);
    for (const waiter of this.waiters) {
      if (this.cursor.block >= waiter.block) {
        this.waiters.delete(waiter);
        waiter.resolve();
      }
    }
  }

  /**
   * The dollar price at each trade block of a batch, from the pool's last price-setting event at or before the block
   * (see poolPriceAt), else read at the block, else left out and said once. Returns where the pool's price was left,
   * to carry into the next batch.
   */
  private async pricesOf(
    events: readonly ServiceEvent[],
    pool: Address | null,
  ): Promise<{ prices: Map<number, bigint>; after: Indexer['dollarPrice'] }> {
    const prices = new Map<number, bigint>();
    const tradeBlocks = [...new Set(events.filter((e) => e.kind === 'trade').map((e) => e.block))].sort(
      (a, b) => a - b,
    );
    let carried = this.dollarPrice;
    const unknown: number[] = [];
    for (const block of tradeBlocks) {
      const price = pool ? await this.poolPriceAt(pool, block, carried) : null;
      if (price === null) {
        unknown.push(block);
        continue;
      }
      prices.set(block, price);
      carried = { block, sqrtPriceX96: price };
    }
    const priceAt = this.options.priceAt;
    if (priceAt && unknown.length > 0) {
      await Promise.all(
        unknown.map(async (block) => {
          const price = await priceAt(block).catch(() => null);
          if (price !== null) prices.set(block, price);
        }),
      );
      const missed = unknown.filter((block) => !prices.has(block));
      if (missed.length > 0 && !this.unpricedLogged) {
        this.unpricedLogged = true;
        this.log.warn(
          `indexer: the dollar pool did not trade in the ${PRICE_LOOKBACK_BLOCKS} blocks before block ${missed[0]} and the RPC keeps no state of it: ` +
            'trades without a dollar price are left out of dollar totals',
        );
      }
    }
    return { prices, after: carried };
  }

  /**
   * The pool's sqrtPriceX96 as `block` left it: its last Swap or Initialize at or before the block. Looked for back
   * from the block in narrow ranges that widen while they find nothing (8 blocks, then 64, 512, ... up to the batch
   * range), down to the last block priced (whose price stands when nothing happened since) or PRICE_LOOKBACK_BLOCKS.
   * Never every event of the pool: on BSC mainnet the WBNB/USDT pool trades in nearly every block, and reading all of
   * its swaps with ours would swamp the public nodes' result caps. A range refused as too large is narrowed.
   */
  private async poolPriceAt(pool: Address, block: number, carried: Indexer['dollarPrice']): Promise<bigint | null> {
    const since = carried !== null && carried.block <= block ? carried : null;
    if (since?.block === block) return since.sqrtPriceX96;
    const floor = since ? since.block + 1 : Math.max(0, block - PRICE_LOOKBACK_BLOCKS);
    let high = block;
    let span = FIRST_PRICE_WINDOW;
    while (high >= floor) {
      const low = Math.max(floor, high - span + 1);
      let found: RawLog[];
      try {
        found = await this.poolLogs(pool, low, high);
      } catch (error) {
        if (saysNodeBehind(error)) throw new NodeBehind(`the node that answered has no block ${high} yet`);
        const refusal = logsRefusal(error);
        if (refusal !== null || low === high) throw error;
        span = Math.max(1, Math.floor((high - low + 1) / 4));
        continue;
      }
      let last: RawLog | undefined;
      for (const log of found) {
        if (log.removed) throw new ChainMoved(`a log of block ${log.blockNumber} was removed`);
        const later =
          !last ||
          Number(log.blockNumber) > Number(last.blockNumber) ||
          (log.blockNumber === last.blockNumber && Number(log.logIndex) > Number(last.logIndex));
        if (later) last = log;
      }
      if (last) return sqrtPriceOf(last);
      high = low - 1;
      span = Math.min(span * 8, this.range);
    }
    return since ? since.sqrtPriceX96 : null;
  }

  private async poolLogs(pool: Address, from: number, to: number): Promise<RawLog[]> {
    return (await this.source.client.request(
      {
        method: 'eth_getLogs',
        params: [
          {
            fromBlock: numberToHex(from),
            toBlock: numberToHex(to),
            address: pool,
            topics: [[SWAP_TOPIC, INITIALIZE_TOPIC]],
          },
        ],
      },
      { retryCount: 1 },
    )) as RawLog[];
  }

  /** The one line that says the RPC lacks eth_getLogs, logged once; the error the pass fails with. */
  private noLogs(error: unknown): Error {
    const said = error instanceof BaseError ? error.details || error.shortMessage : String(error);
    const message = `the RPC does not serve eth_getLogs ("${said}"): launches, trades and referrals cannot be indexed; use an RPC URL that serves it`;
    if (!this.noLogsSaid) {
      this.noLogsSaid = true;
      this.log.warn(`indexer: ${message}`);
    }
    return new NoLogs(message);
  }

  /**
   * Checks that the indexed block is still the chain's; if not, rolls back to where the two chains agree. Over
   * load-balanced nodes only a node that has reached a kept block and holds another one there shows a reorganization:
   * a head below the indexed block, or a kept block a node answers null, is a node behind, asked again without rolling
   * anything back. On one node (the devnet), a head below the indexed block is the chain going back.
   */
  private async checkCursor(head: number): Promise<void> {
    if (this.cursor.hash === null) return;
    const behind = (block: number) => new NodeBehind(`the node that answered has no block ${block} yet`);
    if (this.cursor.block <= head) {
      const header = await this.header(this.cursor.block);
      if (header?.hash === this.cursor.hash) return;
      if (!header && this.heads) throw behind(this.cursor.block);
    } else if (this.heads) return;
    const was = this.cursor.block;
    let asked = 0;
    let answered = 0;
    for (const kept of this.store.recentHashes()) {
      if (kept.number > head || kept.number >= was) continue;
      asked++;
      const now = await this.header(kept.number);
      if (!now && this.heads) throw behind(kept.number);
      if (now) answered++;
      if (now?.hash === kept.hash) {
        this.reorgs++;
        this.cursor = this.store.rollBack(kept.number, kept.hash);
        this.dollarPrice = null;
        this.cursorTime = now.timestamp;
        this.counts = this.store.counts();
        this.log.warn(`indexer: the chain was reorganized after block ${kept.number}; blocks up to ${was} read again`);
        this.options.onRollBack?.(this.cursor);
        return;
      }
    }
    // An RPC that answers no block at all is failing, not showing another chain: nothing is thrown away for it.
    if (asked > 0 && answered === 0) {
      throw new Error(`the RPC has no block at or below ${Math.min(head, was - 1)} that was indexed; trying again`);
    }
    this.reorgs++;
    this.cursor = this.store.rollBack(this.fromBlock - 1, null);
    this.dollarPrice = null;
    this.cursorTime = null;
    this.counts = this.store.counts();
    this.log.warn(
      `indexer: the chain was reorganized deeper than the kept block hashes; indexing again from the start`,
    );
    this.options.onRollBack?.(this.cursor);
  }

  /**
   * The newest block the nodes call finalized (the highest any answered: a node behind answers lower), or null where
   * the option is off or the node does not answer the tag, which is asked again only every minute. A request that did
   * not reach the node fails the pass like any other read.
   */
  private async finalizedBlock(): Promise<number | null> {
    const finality = this.finality;
    if (!this.options.finalized || (finality.answered === false && Date.now() < finality.askAgainAt)) return null;
    let number = await this.askFinalized();
    if (number === null) {
      if (finality.answered !== false)
        this.log.warn('indexer: the RPC answers no finalized block: confirming by block count');
      this.finality = {
        answered: false,
        block: null,
        depth: null,
        deeperPasses: 0,
        askAgainAt: Date.now() + FINALIZED_PROBE_MS,
      };
      return null;
    }
    if (finality.answered === false)
      this.log.info('indexer: the RPC answers the finalized block now: confirming by it');
    // Deeper under the head than the nodes' finality usually is: the node asked is likely behind, and another may
    // already have finalized a newer block. Asked again a few times (each request may land on another node).
    const head = this.heads?.latest() ?? null;
    const deeper = (n: number) => head !== null && finality.depth !== null && head - n > finality.depth;
    for (let again = 0; again < FINALIZED_ASKS_AGAIN && deeper(number); again++) {
      number = Math.max(number, (await this.askFinalized()) ?? number);
    }
    const block = Math.max(number, finality.block ?? number);
    const depth = head === null ? finality.depth : head - block;
    if (deeper(block) && finality.deeperPasses < FINALIZED_DEEPER_PASSES) {
      // Still deeper: looked at again shortly rather than at the next block, a few passes running; after that the
      // nodes' finality is taken to have slowed, and the new depth is the usual one.
      this.finality = { ...finality, answered: true, block, deeperPasses: finality.deeperPasses + 1 };
      this.lookAgainSoon = true;
    } else {
      this.finality = { answered: true, block, depth, deeperPasses: 0, askAgainAt: 0 };
    }
    return block;
  }

  /** The node's `finalized` block number; null where it answers none (a JSON-RPC error, or null). */
  private async askFinalized(): Promise<number | null> {
    try {
      const block = (await this.source.client.request({
        method: 'eth_getBlockByNumber',
        params: ['finalized', false],
      })) as { number: Hex } | null;
      return block ? Number(block.number) : null;
    } catch (error) {
      if (!(error instanceof BaseError) || !error.walk((e) => e instanceof RpcRequestError)) throw error;
      return null;
    }
  }

  private async logs(from: number, to: number): Promise<RawLog[]> {
    const client = this.source.client as PublicClient;
    return (await client.request(
      {
        method: 'eth_getLogs',
        params: [
          {
            fromBlock: numberToHex(from),
            toBlock: numberToHex(to),
            address: this.addresses,
            topics: [SERVICE_EVENT_TOPICS as Hex[]],
          },
        ],
      },
      // One transport retry (viem retries dropped connections, 5xx and rate limits, not JSON-RPC refusals): a range
      // the RPC refuses is answered by a smaller one, but a connection that dropped once says nothing about the range,
      // and halving for it would shrink the range to one block on an RPC that flaps. Anything still failing is left
      // to the indexer's own retry with backoff.
      { retryCount: 1 },
    )) as RawLog[];
  }

  private async header(number: number): Promise<Header | null> {
    const block = (await this.source.client.request({
      method: 'eth_getBlockByNumber',
      params: [numberToHex(number), false],
    })) as { hash: Hex; parentHash: Hex; timestamp: Hex; number: Hex } | null;
    if (!block) return null;
    return { number, hash: block.hash, parentHash: block.parentHash, timestamp: Number(block.timestamp) };
  }

  private sample(): void {
    const now = Date.now();
    const samples = this.progress.samples;
    samples.push({ at: now, block: this.cursor.block, events: this.progress.events });
    while (samples.length > 2 && (samples[0] as { at: number }).at < now - RATE_WINDOW_MS) samples.shift();
  }

  private reportProgress(safe: number): void {
    if (!this.backfillStart) return;
    const now = Date.now();
    if (now - this.lastProgressLog < (this.options.progressEveryMs ?? 5_000)) return;
    this.lastProgressLog = now;
    const total = safe - this.backfillStart.block;
    const done = this.cursor.block - this.backfillStart.block;
    const { blocksPerSecond, eventsPerSecond } = this.status();
    this.log.info(
      `indexer: backfill ${Math.floor((done / Math.max(1, total)) * 100)}%, block ${this.cursor.block} of ${safe} ` +
        `(${safe - this.cursor.block} left, ${blocksPerSecond} blocks/s, ${eventsPerSecond} events/s)`,
    );
  }
}
