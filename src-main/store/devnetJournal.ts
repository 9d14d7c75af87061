import type { Hex } from 'viem';
import type { Db } from './openDatabase';

/**
 * What one journal entry records: 'tx', a transaction mined at once in a block of its own; 'mine', a block (holding
 * whatever waited in the mempool, and the private lane's transactions); 'pool', a transaction that entered the
 * mempool; 'private', a transaction held in the private lane, outside the mempool, for the next block; 'empty', a run
 * of empty blocks; 'time', the chain clock's new offset from the wall clock, in seconds (in `timestamp`).
 */
export type JournalKind = 'tx' | 'mine' | 'pool' | 'private' | 'empty' | 'time';

export interface JournalEntry {
  kind: JournalKind;
  /** The block's timestamp (an empty run's first block's), or the clock offset of a 'time' entry. */
  timestamp: number;
  raw: Hex | null;
  txHash: Hex | null;
  /**
   * Checked on replay; null for an entry written ahead of its block whose hash could not be added after (replayed
   * like any other, with nothing to compare).
   */
  blockHash: Hex | null;
  /** An empty run's later blocks: each one's timestamp less the one before it. */
  times?: number[];
}

/** A rehearsal (a fork) a journal fingerprint was recorded on. */
export interface JournaledFork {
  url: string;
  sourceChainId: number;
  block: number;
}

/** What block_hash (NOT NULL) holds while an entry's block is being made. */
const UNKNOWN_BLOCK_HASH = '';

/** The devnet's block journal: what users did on the embedded chain, so a restart can replay it. */
export class DevnetJournal {
  private readonly insert;
  private readonly select;
  private readonly countOthers;
  private readonly completeEntry;
  private readonly discardEntry;
  private readonly extendRun;
  private readonly cadenceEntries;
  private forkStatements: ReturnType<typeof prepareForkStatements> | undefined;

  constructor(private readonly db: Db) {
    this.insert = db.prepare(
      `INSERT INTO devnet_journal (fingerprint, kind, timestamp, raw, tx_hash, block_hash, recorded_at)
       VALUES (@fingerprint, @kind, @timestamp, @raw, @txHash, @blockHash, @recordedAt)`,
    );
    this.select = db.prepare(
      `SELECT kind, timestamp, raw, tx_hash AS txHash, nullif(block_hash, '${UNKNOWN_BLOCK_HASH}') AS blockHash, times
       FROM devnet_journal WHERE fingerprint = ? ORDER BY seq`,
    );
    this.countOthers = db.prepare('SELECT count(*) FROM devnet_journal WHERE fingerprint <> ?').pluck();
    this.completeEntry = db.prepare('UPDATE devnet_journal SET tx_hash = ?, block_hash = ? WHERE seq = ?');
    this.discardEntry = db.prepare('DELETE FROM devnet_journal WHERE seq = ?');
    this.cadenceEntries = db
      .prepare("SELECT EXISTS (SELECT 1 FROM devnet_journal WHERE kind IN ('pool', 'private', 'empty'))")
      .pluck();
    this.extendRun = db.prepare(
      `UPDATE devnet_journal SET times = coalesce(times || ',', '') || ?, block_hash = '${UNKNOWN_BLOCK_HASH}'
       WHERE seq = ? AND kind = 'empty'`,
    );
  }

  /** Notes which rehearsal the fingerprint stands for (its source RPC and fork block). */
  recordFork(fingerprint: string, fork: JournaledFork): void {
    this.forks().insertFork.run(fingerprint, fork.url, fork.sourceChainId, fork.block, Date.now());
  }

  /**
   * The fork block of the last rehearsal forked from this RPC URL in which anything was done, to resume it; null when
   * there was none (a fresh rehearsal then forks the head).
   */
  lastForkBlock(url: string): bigint | null {
    const block = this.forks().lastForkOf.get(url) as number | undefined;
    return block === undefined ? null : BigInt(block);
  }

  /** Rehearsals other than this one whose blocks are kept in the journal, newest first, with their entry counts. */
  foreignForks(fingerprint: string): (JournaledFork & { entries: number })[] {
    return this.forks().otherForks.all(fingerprint) as (JournaledFork & { entries: number })[];
  }

  /**
   * Writes an entry ahead of the block it describes (its hash unknown yet) and returns its number for `complete` or
   * `discard`: a block is made only once it is recorded, so a failed write refuses it before anything is mined.
   */
  begin(fingerprint: string, entry: Omit<JournalEntry, 'txHash' | 'blockHash' | 'times'>): number {
    const { lastInsertRowid } = this.insert.run({
      fingerprint,
      recordedAt: Date.now(),
      ...entry,
      txHash: null,
      blockHash: UNKNOWN_BLOCK_HASH,
    });
    return Number(lastInsertRowid);
  }

  /**
   * Adds one more empty block to the run `seq`, `delta` seconds after the run's last, ahead of mining it (the run's
   * last hash is unknown until `complete`).
   */
  extendEmptyRun(seq: number, delta: number): void {
    if (this.extendRun.run(delta, seq).changes !== 1) throw new Error(`journal entry ${seq} is not an empty run`);
  }

  /** Adds what the block turned out to be, for the replay to check. */
  complete(seq: number, txHash: Hex | null, blockHash: Hex): void {
    this.completeEntry.run(txHash, blockHash, seq);
  }

  /** Takes back an entry whose block was never made (the chain refused the transaction). */
  discard(seq: number): void {
    this.discardEntry.run(seq);
  }

  /** Entries recorded on the devnet build with this fingerprint, oldest first. */
  entries(fingerprint: string): JournalEntry[] {
    return (this.select.all(fingerprint) as (Omit<JournalEntry, 'times'> & { times: string | null })[]).map(
      ({ times, ...entry }) => (times === null ? entry : { ...entry, times: times.split(',').map(Number) }),
    );
  }

  /** Whether any run recorded blocks at a cadence (whose replay needs blocks that share a second). */
  hasCadenceEntries(): boolean {
    return this.cadenceEntries.get() === 1;
  }

  /** Entries recorded on other devnet builds: kept, never replayed onto a chain they were not made on. */
  countForeign(fingerprint: string): number {
    return this.countOthers.get(fingerprint) as number;
  }

  /** The statements about rehearsals, prepared when first used (only a fork uses them). */
  private forks(): ReturnType<typeof prepareForkStatements> {
    this.forkStatements ??= prepareForkStatements(this.db);
    return this.forkStatements;
  }
}

function prepareForkStatements(db: Db) {
  return {
    insertFork: db.prepare(
      `INSERT OR IGNORE INTO devnet_forks (fingerprint, source_url, source_chain_id, fork_block, recorded_at)
       VALUES (?, ?, ?, ?, ?)`,
    ),
    lastForkOf: db
      .prepare(
        `SELECT fork_block FROM devnet_forks f
         WHERE source_url = ? AND EXISTS (SELECT 1 FROM devnet_journal j WHERE j.fingerprint = f.fingerprint)
         ORDER BY recorded_at DESC, rowid DESC LIMIT 1`,
      )
      .pluck(),
    otherForks: db.prepare(
      `SELECT f.source_url AS url, f.source_chain_id AS sourceChainId, f.fork_block AS block, count(*) AS entries
       FROM devnet_journal j JOIN devnet_forks f ON f.fingerprint = j.fingerprint
       WHERE j.fingerprint <> ? GROUP BY j.fingerprint ORDER BY max(j.seq) DESC`,
    ),
  };
}
