import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { ActivityStore } from './activityStore';
import { DevnetJournal } from './devnetJournal';
import { MIGRATIONS } from './migrations';
import { openDatabase } from './openDatabase';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const WALLET = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';

it('opens activity and a devnet journal written before private sending: public sends, every journal row kept', () => {
  const dir = mkdtempSync(join(tmpdir(), 'companion-db-'));
  dirs.push(dir);
  const file = join(dir, 'app.sqlite');
  const index = MIGRATIONS.findIndex((m) => m.id === '2026-12-02-private-sending');
  expect(index).toBeGreaterThan(0);
  // The schema as the older version left it, with rows it wrote.
  const old = openDatabase(file, MIGRATIONS.slice(0, index));
  old
    .prepare(
      `INSERT INTO activity (id, group_id, step, kind, title, wallet, chain_id, status, hash, created_at, updated_at)
       VALUES ('a1', 'a1', 'main', 'launch', 'Launch X', ?, 31337, 'confirmed', ?, 1000, 1000)`,
    )
    .run(WALLET, `0x${'aa'.repeat(32)}`);
  const before = new DevnetJournal(old);
  const pool = before.begin('fp', { kind: 'pool', raw: '0x01', timestamp: 0 });
  before.complete(pool, `0x${'11'.repeat(32)}`, '0x');
  const empty = before.begin('fp', { kind: 'empty', raw: null, timestamp: 100 });
  before.extendEmptyRun(empty, 1);
  before.complete(empty, null, `0x${'22'.repeat(32)}`);
  const rows = before.entries('fp');
  old.close();

  const db = openDatabase(file);
  expect(new ActivityStore(db).get('a1')).toMatchObject({ kind: 'launch', sentPrivately: false });
  const journal = new DevnetJournal(db);
  expect(journal.entries('fp')).toEqual(rows);
  // The journal now takes the private lane's entries, after the ones it had.
  const lane = journal.begin('fp', { kind: 'private', raw: '0x02', timestamp: 0 });
  journal.complete(lane, `0x${'33'.repeat(32)}`, '0x');
  expect(journal.entries('fp').map((entry) => entry.kind)).toEqual(['pool', 'empty', 'private']);
  expect(journal.hasCadenceEntries()).toBe(true);
  db.close();
});
