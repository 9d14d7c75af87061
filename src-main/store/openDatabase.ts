import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS, type Migration } from './migrations';
import { sqliteNativeBinding } from './sqliteNativeBinding';

export type Db = Database.Database;

/**
 * Opens (creating if needed) the app's SQLite database in WAL mode and applies the migrations it has not seen, each in
 * its own transaction with its record, so a crash mid-migration leaves the database at the previous step.
 *
 * @example const db = openDatabase(join(dataDir, 'app.sqlite'))
 */
export function openDatabase(file: string, migrations: readonly Migration[] = MIGRATIONS): Db {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  // Inside Electron the addon compiled for Electron's ABI; under Node, node_modules' own build.
  const nativeBinding = sqliteNativeBinding();
  const db = new Database(file, nativeBinding ? { nativeBinding } : {});
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY, applied_at INTEGER NOT NULL) STRICT');
  const applied = new Set(db.prepare('SELECT id FROM schema_migrations').pluck().all() as string[]);
  const record = db.prepare('INSERT INTO schema_migrations (id, applied_at) VALUES (?, ?)');
  for (const migration of migrations) {
    if (applied.has(migration.id)) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      record.run(migration.id, Date.now());
    })();
  }
  return db;
}
