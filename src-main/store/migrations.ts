/**
 * Append-only schema history, named by date. Never edit or reorder an entry once it has shipped: a database written
 * by an older version must open, so changes are always new entries at the end.
 */
export interface Migration {
  readonly id: string;
  readonly sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    id: '2026-11-22-devnet-journal',
    sql: `
      -- Every block that users made on the embedded devnet (through /rpc), replayed in order on the next start.
      CREATE TABLE devnet_journal (
        seq         INTEGER PRIMARY KEY,
        fingerprint TEXT    NOT NULL,  -- hash of the devnet's last deployment block: which devnet build it ran on
        kind        TEXT    NOT NULL CHECK (kind IN ('tx', 'mine')),
        timestamp   INTEGER NOT NULL,  -- the block's timestamp, reused on replay
        raw         TEXT,              -- the signed transaction, for kind 'tx'
        tx_hash     TEXT,
        block_hash  TEXT    NOT NULL,  -- checked on replay: the same block must come out
        recorded_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX devnet_journal_fingerprint ON devnet_journal (fingerprint, seq);
    `,
  },
];
