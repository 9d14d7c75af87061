import type { Address, Hex } from 'viem';
import type { IndexerStatus } from '../../../src-shared/schema/status';
import type { HeadTracker } from '../../chain/headTracker';
import { type Logger, silentLogger } from '../../log/createLogger';
import type { IndexCursor, IndexStore } from '../../store/indexStore';
import { CoalescedRun } from '../coalescedRun';
import { type CursorCheckParts, checkCursor } from './checkCursor';
import { blocksOf, decodeBatch } from './decodeBatch';
import { Finality } from './finality';
import { ChainMoved } from './indexerErrors';
import type { IndexerOptions, IndexerSource } from './indexerOptions';
import { IndexProgress } from './indexProgress';
import { IndexWriter } from './indexWriter';
import { LogSource } from './logSource';
import { BEHIND_RETRY_MS, RetryBackoff } from './retryBackoff';
import { TradePrices } from './tradePrices';

/**
 * Follows the service's contracts (factory, router, referral vault) and the Transfer logs of the tokens launched by
 * the factory, and keeps their events and the tokens' holders in SQLite: eth_getLogs
 * in block ranges from the deploy block, then new blocks as they come. Each batch goes in with the cursor in one
 * transaction; before going on, the indexed block's hash is checked against the chain, and a reorganization rolls
 * back the orphaned blocks' rows (also in one transaction) and reads the new ones.
 */
export class Indexer {
  private readonly fromBlock: number;
  private readonly index: IndexWriter;
  private readonly logs: LogSource;
  private readonly prices: TradePrices;
  private readonly finality: Finality;
  private readonly progress: IndexProgress;
  private readonly cursorCheck: CursorCheckParts;
  private readonly backoff = new RetryBackoff();
  private head: number | null = null;
  /**
   * Over load-balanced nodes (an RPC URL), the highest head any node reported: a lower answer, or a block missing at
   * or below it, is a node behind. Null for one node (the devnet), whose lower head is the chain going back.
   */
  private readonly heads: HeadTracker | null;
  /** The last pass met a finalized block deeper than usual: the next comes shortly, not at the next block. */
  private lookAgainSoon = false;
  private confirmed: { block: number; by: 'finalized' | 'blocks' } | null = null;
  private readonly run = new CoalescedRun(() => this.pass());
  /** The RPC answered this pass's head: it is reachable, and a later read that failed is retried soon. */
  private headReadThisPass = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private pollTimer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;
  private state: IndexerStatus['state'] = 'starting';
  private lastError: IndexerStatus['lastError'] = null;
  private readonly waiters = new Set<{ block: number; resolve: () => void }>();
  private readonly log: Logger;

  constructor(
    private readonly source: IndexerSource,
    store: IndexStore,
    private readonly options: IndexerOptions,
  ) {
    const { factory, router, referrals } = source.addresses;
    if (!factory || !router) throw new Error('the indexer needs the factory and the router deployed');
    this.fromBlock = Number(source.deployBlock);
    this.log = options.log ?? silentLogger();
    this.heads = source.heads ?? null;
    const addresses = [factory, router, ...(referrals ? [referrals] : [])];
    const target = {
      chainId: source.chainId,
      factory,
      router,
      referrals: referrals ?? null,
      fromBlock: this.fromBlock,
    };
    this.index = new IndexWriter(store, target);
    const tokens = () => this.index.tokens;
    this.logs = new LogSource(source.client, addresses, this.heads, this.log, options.maxRange, tokens);
    this.prices = new TradePrices(source.client, options.priceAt, this.log);
    this.finality = new Finality(source.client, Boolean(options.finalized), this.heads, this.log);
    this.progress = new IndexProgress(this.log, options.progressEveryMs);
    const { index, logs, prices, heads, fromBlock, log } = this;
    this.cursorCheck = { index, logs, prices, heads, fromBlock, log, onRollBack: options.onRollBack };
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
    if (this.index.cursor.block >= target) return Promise.resolve();
    return new Promise((resolve) => {
      this.waiters.add({ block: target, resolve });
      this.poke();
    });
  }

  /** Every event up to and including this block is stored. */
  indexedBlock(): number {
    return this.index.cursor.block;
  }

  /** The indexed block and its time (null until this run has read its header), for jobs that follow the index. */
  indexedHead(): { block: number; hash: Hex | null; timestamp: number | null } {
    const { block, hash } = this.index.cursor;
    return { block, hash, timestamp: this.index.cursorTime };
  }

  /** Runs until the newest confirmed block is indexed (used by tools that index and exit). */
  async catchUpOnce(): Promise<IndexCursor> {
    await this.catchUp();
    return this.index.cursor;
  }

  status(): IndexerStatus {
    const safe = this.confirmed?.block ?? null;
    const indexed = this.index.cursor.block;
    return {
      state: this.run.isStopped ? 'stopped' : this.state,
      fromBlock: this.fromBlock,
      indexedBlock: indexed,
      chainHead: this.head,
      confirmations: this.options.confirmations,
      confirmation: {
        by: this.confirmed?.by ?? 'blocks',
        finalizedBlock: this.finality.reported,
        confirmedBlock: safe,
      },
      blocksDone: this.progress.blocksDone,
      blocksLeft: safe === null ? 0 : Math.max(0, safe - indexed),
      ...this.progress.rates(),
      range: this.logs.range,
      reorgs: this.index.reorgs,
      stored: { ...this.index.counts },
      lastError: this.lastError,
    };
  }

  /** One catch-up; after a failure, a retry after the pause the back-off sets (and no more passes until then). */
  private async pass(): Promise<boolean> {
    const before = this.index.cursor.block;
    this.headReadThisPass = false;
    try {
      this.lookAgainSoon = false;
      await this.catchUp();
      this.backoff.succeeded();
      if (this.lookAgainSoon) this.retryIn(BEHIND_RETRY_MS, () => this.poke());
      return true;
    } catch (error) {
      if (this.run.isStopped) return false;
      const next = this.backoff.failed(error, {
        moved: this.index.cursor.block > before,
        headRead: this.headReadThisPass,
      });
      if (next.kind === 'past-node-behind') {
        this.retryIn(next.delayMs, () => this.retryPastNodeBehind());
        return false;
      }
      const message = error instanceof Error ? error.message.split('\n')[0] || error.name : String(error);
      this.lastError = { message, at: new Date().toISOString() };
      this.state = 'retrying';
      if (next.log) this.log.warn(`indexer: ${message}; trying again in ${Math.round(next.delayMs / 100) / 10} s`);
      this.retryIn(next.delayMs, () => this.poke());
      return false;
    }
  }

  private retryIn(delayMs: number, then: () => void): void {
    this.retryTimer = setTimeout(then, delayMs);
    this.retryTimer.unref();
  }

  /**
   * Asks again after a node behind answered. A balancer that deals requests out in strict turn sends a pass of the same
   * requests to the same nodes each time, so every other retry first asks the head once more (which also tells the
   * head tracker what that node has): the pass then starts on the next node.
   */
  private retryPastNodeBehind(): void {
    if (this.backoff.behindRetries % 2 === 0) {
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
      this.finality.finalizedBlock(),
    ]);
    if (finalized.lookAgainSoon) this.lookAgainSoon = true;
    // A node behind answers a lower head than another already did: the chain did not go back.
    this.heads?.see(Number(answered));
    const head = Math.max(Number(answered), this.heads?.latest() ?? 0);
    this.head = head;
    this.headReadThisPass = true;
    const byBlocks = head - this.options.confirmations;
    const confirmed =
      finalized.block !== null && finalized.block > byBlocks ? Math.min(finalized.block, head) : byBlocks;
    this.confirmed = { block: confirmed, by: confirmed === byBlocks ? 'blocks' : 'finalized' };
    const stepBack = this.backoff.stepBack;
    const safe = Math.max(this.index.cursor.block, confirmed - stepBack);
    // Short of the head after nodes behind refused it: once these blocks are in, the head is tried again at once (with
    // nothing to read short of it, at the usual pace, so a balancer that keeps refusing is not asked in a tight loop).
    if (stepBack > 0 && this.index.cursor.block < safe) this.lookAgainSoon = true;
    if (this.index.cursor.block >= safe) {
      // Nothing new to read, but the indexed block may have been replaced (a reorganization at the same height or
      // a chain that went back).
      await this.source.consistentRead(() => checkCursor(this.cursorCheck, head));
      this.state = 'following';
      return;
    }
    this.progress.startBackfill(this.index.cursor.block, safe, this.logs.range, this.index.cursor.hash === null);
    let moved = 0;
    while (!this.run.isStopped && this.index.cursor.block < safe) {
      this.state = safe - this.index.cursor.block > this.logs.range ? 'backfilling' : 'following';
      try {
        await this.source.consistentRead(() => this.batch(this.index.cursor.block + 1, safe, head));
        moved = 0;
      } catch (error) {
        if (!(error instanceof ChainMoved)) throw error;
        // A chain that keeps moving under every read (or an RPC that contradicts itself) is retried with pauses.
        if (++moved > 3) throw error;
        await this.source.consistentRead(() => checkCursor(this.cursorCheck, head));
      }
      this.progress.report(this.index.cursor.block, safe);
    }
    this.state = 'following';
    this.progress.caughtUp(this.index.cursor.block, safe);
  }

  /** Reads and stores the events of blocks [from, ...], as many as the RPC accepts in one range up to `safe`. */
  private async batch(from: number, safe: number, head: number): Promise<void> {
    // A failed read of the pool's address fails the batch: reading on without it would leave a gap in prices.
    const pool = ((await this.options.dollarPool?.()) ?? null)?.toLowerCase() ?? null;
    const read = await this.logs.read(from, safe);
    const { to } = read;
    const launchedHere = await this.logs.launchedTransfers(read.logs, to);
    const logs = launchedHere.length === 0 ? read.logs : [...read.logs, ...launchedHere];
    const headers = await this.logs.headers(blocksOf(logs, from, to), head);
    const events = decodeBatch(logs, headers, from, this.index.cursor);
    const { prices, after } = await this.prices.pricesOf(events, pool as Address | null, this.logs.range);
    this.index.write({ events, headers, prices, to });
    this.prices.carry(after);
    this.progress.stored(to - from + 1, events.length, this.index.cursor.block);
    this.options.onBatch?.(this.index.cursor, events.length);
    for (const waiter of this.waiters) {
      if (this.index.cursor.block >= waiter.block) {
        this.waiters.delete(waiter);
        waiter.resolve();
      }
    }
  }
}
