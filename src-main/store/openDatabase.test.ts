import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DevnetJournal, type JournalEntry } from './devnetJournal';
import { MIGRATIONS } from './migrations';
import { openDatabase } from './openDatabase';

/** A whole entry, written as the devnet writes one: ahead of its block, then completed with the block's hashes. */
function record(journal: DevnetJournal, fingerprint: string, entry: JournalEntry): void {
  const { txHash, blockHash, ...ahead } = entry;
  const seq = journal.begin(fingerprint, ahead);
  if (blockHash !== null) journal.complete(seq, txHash, blockHash);
}

const dirs: string[] = [];
function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'companion-db-'));
  dirs.push(dir);
  return join(dir, 'app.sqlite');
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('openDatabase', () => {
  it('applies every migration once, in WAL mode, and reopens without re-running them', () => {
    const file = tempFile();
    const db = openDatabase(file);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.prepare('SELECT id FROM schema_migrations ORDER BY id').pluck().all()).toEqual(
      MIGRATIONS.map((m) => m.id),
    );
    record(new DevnetJournal(db), 'fp', { kind: 'mine', timestamp: 1, raw: null, txHash: null, blockHash: '0x01' });
    db.close();
    const again = openDatabase(file);
    expect(new DevnetJournal(again).entries('fp')).toEqual([
      { kind: 'mine', timestamp: 1, raw: null, txHash: null, blockHash: '0x01' },
    ]);
    again.close();
  });

  it('opens a database written by an older version and brings it up to date, keeping its rows', () => {
    const file = tempFile();
    const old = openDatabase(file, MIGRATIONS.slice(0, 1));
    // As the first version wrote its journal (its table had no room for later kinds and columns).
    old
      .prepare(
        `INSERT INTO devnet_journal (fingerprint, kind, timestamp, raw, tx_hash, block_hash, recorded_at)
         VALUES ('fp', 'mine', 7, NULL, NULL, '0x02', 1)`,
      )
      .run();
    old.close();
    const later = [
      ...MIGRATIONS,
      { id: '2999-01-01-later', sql: 'CREATE TABLE later_feature (id INTEGER PRIMARY KEY)' },
    ];
    const db = openDatabase(file, later);
    expect(db.prepare('SELECT count(*) FROM schema_migrations').pluck().get()).toBe(later.length);
    expect(new DevnetJournal(db).entries('fp')).toEqual([
      { kind: 'mine', timestamp: 7, raw: null, txHash: null, blockHash: '0x02' },
    ]);
    db.close();
  });

  it('leaves the database at the previous step when a migration fails', () => {
    const file = tempFile();
    const broken = [
      ...MIGRATIONS,
      { id: '2999-01-02-broken', sql: 'CREATE TABLE half (id INTEGER); SELECT nonsense FROM nowhere;' },
    ];
    expect(() => openDatabase(file, broken)).toThrow();
    const db = openDatabase(file);
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'half'").pluck().get()).toBe(0);
    db.close();
  });
});

describe('DevnetJournal', () => {
  it('keeps entries of another devnet build apart from the ones it replays', () => {
    const db = openDatabase(tempFile());
    const journal = new DevnetJournal(db);
    record(journal, 'old', { kind: 'mine', timestamp: 1, raw: null, txHash: null, blockHash: '0x01' });
    record(journal, 'new', { kind: 'tx', timestamp: 2, raw: '0xab', txHash: '0x03', blockHash: '0x02' });
    expect(journal.entries('new')).toEqual([
      { kind: 'tx', timestamp: 2, raw: '0xab', txHash: '0x03', blockHash: '0x02' },
    ]);
    expect(journal.countForeign('new')).toBe(1);
    db.close();
  });
});
