import type { Address, Hex } from 'viem';
import type { ServiceEvent } from '../../chain/serviceEvents';
import type { IndexCounts, IndexCursor, IndexStore, IndexTarget } from '../../store/indexStore';
import type { Header } from './logSource';

/** A batch read and checked, ready to go into the store with the cursor. */
export interface ReadBatch {
  events: readonly ServiceEvent[];
  headers: ReadonlyMap<number, Header>;
  /** The dollar pool's sqrtPriceX96 at trade blocks, where it is known. */
  prices: ReadonlyMap<number, bigint>;
  to: number;
}

/**
 * The index as stored, and what this run knows of it beside the store (the indexed block's time, the counts /status
 * shows, the reorganizations met): every change goes through here, so the cursor in memory is never ahead of or
 * behind the one in SQLite.
 */
export class IndexWriter {
  private at: IndexCursor;
  private time: number | null = null;
  private stored: IndexCounts;
  private rolledBack = 0;
  private launched: Address[];

  constructor(
    private readonly store: IndexStore,
    target: IndexTarget,
  ) {
    this.at = store.open(target);
    this.stored = store.counts();
    this.launched = store.launchedTokens();
  }

  /** The tokens launched up to the cursor, in launch order: the ones whose transfers the next batch reads. */
  get tokens(): readonly Address[] {
    return this.launched;
  }

  /** Every event up to and including this block is stored. */
  get cursor(): IndexCursor {
    return this.at;
  }

  /** The indexed block's time (Unix seconds), when this run has read its header. */
  get cursorTime(): number | null {
    return this.time;
  }

  get counts(): IndexCounts {
    return this.stored;
  }

  /** Reorganizations rolled back since this run started. */
  get reorgs(): number {
    return this.rolledBack;
  }

  /** Block hashes kept for reorg detection, newest first. */
  recentHashes(): { number: number; hash: Hex }[] {
    return this.store.recentHashes();
  }

  /** Stores a batch with the cursor in one transaction, so a crash leaves it in whole or not at all. */
  write({ events, headers, prices, to }: ReadBatch): void {
    const timestamps = new Map<number, number>();
    const hashes = new Map<number, Hex>();
    for (const [number, header] of headers) {
      timestamps.set(number, header.timestamp);
      hashes.set(number, header.hash);
    }
    this.at = this.store.write({ events, timestamps, hashes, prices, to });
    this.time = timestamps.get(to) ?? null;
    for (const event of events) {
      if (event.kind === 'launched') {
        this.stored.launches++;
        this.launched.push(event.token);
      } else if (event.kind === 'trade') this.stored.trades++;
      else if (event.kind === 'bound') this.stored.bindings++;
      else if (event.kind === 'collected') this.stored.collections++;
    }
  }

  /**
   * Takes the index back to `block` (whose hash and time are given; a null hash starts the index again) after a
   * reorganization, dropping the orphaned blocks' rows in one transaction.
   */
  rollBack(block: number, hash: Hex | null, timestamp: number | null): void {
    this.rolledBack++;
    this.at = this.store.rollBack(block, hash);
    this.time = timestamp;
    this.stored = this.store.counts();
    this.launched = this.store.launchedTokens();
  }
}
