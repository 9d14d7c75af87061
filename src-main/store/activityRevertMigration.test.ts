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

it('keeps the revert by name and the fee of a mined transaction, and reads rows written before it had neither', () => {
  const dir = mkdtempSync(join(tmpdir(), 'companion-db-'));
  dirs.push(dir);
  const file = join(dir, 'app.sqlite');
  const index = MIGRATIONS.findIndex((m) => m.id === '2026-12-02-activity-revert');
  expect(index).toBeGreaterThan(0);
  // A launch that reverted, as the older version stored it: the sentence only.
  const old = openDatabase(file, MIGRATIONS.slice(0, index));
  old
    .prepare(
      `INSERT INTO activity (id, group_id, step, kind, title, wallet, chain_id, status, error, block, gas_used,
         created_at, updated_at)
       VALUES ('old', 'old', 'main', 'launch', 'Launch', ?, 31337, 'reverted', 'Someone priced it first.', 7, '90000', 1, 1)`,
    )
    .run(WALLET);
  old.close();

  const db = openDatabase(file);
  const store = new ActivityStore(db, () => 2);
  expect(store.get('old')).toMatchObject({ status: 'reverted', error: 'Someone priced it first.', revert: null });
  expect(store.get('old')?.feeWei).toBeNull();

  const begin = {
    groupId: 'g',
    step: 'main',
    kind: 'launch',
    title: 'Launch',
    wallet: WALLET,
    chainId: 31337,
  } as const;
  store.begin({ id: 'taken', ...begin });
  store.settled('taken', {
    status: 'reverted',
    block: 9,
    gasUsed: 90_000n,
    feeWei: 90_000n * 3_000_000_000n,
    error: 'words',
    revert: 'PoolOccupied',
  });
  expect(store.get('taken')).toMatchObject({
    status: 'reverted',
    revert: 'PoolOccupied',
    feeWei: '270000000000000',
    gasUsed: '90000',
  });
  store.begin({ id: 'landed', ...begin, groupId: 'h' });
  store.settled('landed', { status: 'confirmed', block: 10, gasUsed: 21_000n });
  expect(store.get('landed')).toMatchObject({ status: 'confirmed', revert: null, feeWei: null, error: null });
  db.close();
});
