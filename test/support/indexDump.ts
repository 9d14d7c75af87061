import Database from 'better-sqlite3';

/** The indexer's event tables, each in its natural order, and the balances and first-buy recipients made of them. */
const EVENT_TABLES: Record<string, string> = {
  launches: 'block, log_index',
  trades: 'block, log_index',
  bindings: 'block, log_index',
  collections: 'block, log_index',
  referral_roots: 'block, log_index',
  referral_claims: 'block, log_index',
  holders: 'token, holder',
  first_buy_recipients: 'token, wallet',
};

/**
 * Everything the indexer stored, as plain rows: every event table in order, and the cursor (block and hash). Two
 * indexes of the same chain must dump equal, however their batches fell.
 */
export function dumpIndex(file: string): Record<string, unknown[]> {
  const db = new Database(file, { readonly: true });
  try {
    const dump: Record<string, unknown[]> = {};
    for (const [table, order] of Object.entries(EVENT_TABLES)) {
      dump[table] = db.prepare(`SELECT * FROM ${table} ORDER BY ${order}`).all();
    }
    dump.cursor = db
      .prepare('SELECT chain_id, factory, router, referrals, from_block, block, hash FROM index_state')
      .all();
    return dump;
  } finally {
    db.close();
  }
}
