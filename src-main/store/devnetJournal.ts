import type { Hex } from 'viem';
import type { Db } from './openDatabase';

export interface JournalEntry {
  kind: 'tx' | 'mine';
  timestamp: number;
  raw: Hex | null;
  txHash: Hex | null;
  blockHash: Hex;
}

/** The devnet's block journal: what users did on the embedded chain, so a restart can replay it. */
export class DevnetJournal {
  private readonly insert;
  private readonly select;
  private readonly countOthers;

  constructor(db: Db) {
    this.insert = db.prepare(
      `INSERT INTO devnet_journal (fingerprint, kind, timestamp, raw, tx_hash, block_hash, recorded_at)
       VALUES (@fingerprint, @kind, @timestamp, @raw, @txHash, @blockHash, @recordedAt)`,
    );
    this.select = db.prepare(
      `SELECT kind, timestamp, raw, tx_hash AS txHash, block_hash AS blockHash
       FROM devnet_journal WHERE fingerprint = ? ORDER BY seq`,
    );
    this.countOthers = db.prepare('SELECT count(*) FROM devnet_journal WHERE fingerprint <> ?').pluck();
  }

  append(fingerprint: string, entry: JournalEntry): void {
    this.insert.run({ fingerprint, recordedAt: Date.now(), ...entry });
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
