import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { ActivityStore } from './activityStore';
import { MIGRATIONS } from './migrations';
import { openDatabase } from './openDatabase';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const WALLET = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';
const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3' as const;

it('keeps what a confirmed transaction moved, and reads rows stored before it had none', () => {
  const dir = mkdtempSync(join(tmpdir(), 'companion-db-'));
  dirs.push(dir);
  const file = join(dir, 'app.sqlite');
  const index = MIGRATIONS.findIndex((m) => m.id === '2026-12-07-activity-moved');
  expect(index).toBeGreaterThan(0);
  // A buy confirmed by the older version: its receipt's amounts were never kept.
  const old = openDatabase(file, MIGRATIONS.slice(0, index));
  old
    .prepare(
      `INSERT INTO activity (id, group_id, step, kind, title, wallet, chain_id, status, block, gas_used, fee_wei,
         created_at, updated_at)
       VALUES ('old', 'old', 'main', 'buy', 'Buy', ?, 31337, 'confirmed', 7, '150000', '150000', 1, 1)`,
    )
    .run(WALLET);
  old.close();

  const db = openDatabase(file);
  const store = new ActivityStore(db, () => 2);
  expect(store.get('old')).toMatchObject({ status: 'confirmed', feeWei: '150000', moved: null });

  const moved = {
    received: [{ currency: TOKEN, wei: '123456789012345678901234' }],
    paid: [{ currency: 'BNB' as const, wei: '200000000000000000' }],
  };
  store.begin({ id: 'new', groupId: 'g', step: 'main', kind: 'buy', title: 'Buy', wallet: WALLET, chainId: 31337 });
  store.settled('new', { status: 'confirmed', block: 9, gasUsed: 150_000n, moved });
  expect(store.get('new')?.moved).toEqual(moved);
  // A reverted one moved nothing.
  store.begin({ id: 'rev', groupId: 'h', step: 'main', kind: 'buy', title: 'Buy', wallet: WALLET, chainId: 31337 });
  store.settled('rev', { status: 'reverted', block: 10, gasUsed: 90_000n });
  expect(store.get('rev')?.moved).toBeNull();
  // A row someone damaged by hand reads as not known, not as a failure of the whole list.
  db.prepare(`UPDATE activity SET moved = '{not json' WHERE id = 'new'`).run();
  expect(store.list().find((entry) => entry.id === 'new')?.moved).toBeNull();
  db.close();
});
