import type { Hex } from 'viem';
import type { Db } from './openDatabase';

export interface JournalEntry {
  kind: 'tx' | 'mine';
  timestamp: number;
  raw: Hex | null;
  txHash: Hex | null;
  /**
   * Checked on replay; null for an entry written ahead of its block whose hash could not be added after (replayed
   * like any other, with nothing to compare).
   */
  blockHash: Hex | null;
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

  constructor(db: Db) {
    this.insert = db.prepare(
      `INSERT INTO devnet_journal (fingerprint, kind, timestamp, raw, tx_hash, block_hash, recorded_at)
       VALUES (@fingerprint, @kind, @timestamp, @raw, @txHash, @blockHash, @recordedAt)`,
    );
    this.select = db.prepare(
      `SELECT kind, timestamp, raw, tx_hash AS txHash, nullif(block_hash, '${UNKNOWN_BLOCK_HASH}') AS blockHash
       FROM devnet_journal WHERE fingerprint = ? ORDER BY seq`,
    );
    this.countOthers = db.prepare('SELECT count(*) FROM devnet_journal WHERE fingerprint <> ?').pluck();
    this.completeEntry = db.prepare('UPDATE devnet_journal SET tx_hash = ?, block_hash = ? WHERE seq = ?');
    this.discardEntry = db.prepare('DELETE FROM devnet_journal WHERE seq = ?');
  }

  /**
   * Writes an entry ahead of the block it describes (its hash unknown yet) and returns its number for `complete` or
   * `discard`: a block is made only once it is recorded, so a failed write refuses it before anything is mined.
   */
  begin(fingerprint: string, entry: Omit<JournalEntry, 'txHash' | 'blockHash'>): number {
    const { lastInsertRowid } = this.insert.run({
      fingerprint,
      recordedAt: Date.now(),
      ...entry,
      txHash: null,
      blockHash: UNKNOWN_BLOCK_HASH,
    });
    return Number(lastInsertRowid);
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
    return this.select.all(fingerprint) as JournalEntry[];
  }

  /** Entries recorded on other devnet builds: kept, never replayed onto a chain they were not made on. */
  countForeign(fingerprint: string): number {
    return this.countOthers.get(fingerprint) as number;
  }
}
