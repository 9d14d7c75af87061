import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { ChainContext } from '../chain/connectChain';
import { Intents } from '../services/intents';
import { MIGRATIONS } from './migrations';
import { openDatabase } from './openDatabase';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const WALLET = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';
const KEY_WALLET = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const HASH = `0x${'ab'.repeat(32)}`;

it('opens prepared requests stored before sources were kept: keyed ones keep the key, the others are closed, one hash keeps one request', () => {
  const dir = mkdtempSync(join(tmpdir(), 'companion-db-'));
  dirs.push(dir);
  const file = join(dir, 'app.sqlite');
  const index = MIGRATIONS.findIndex((m) => m.id === '2026-11-28-intent-sources');
  expect(index).toBeGreaterThan(0);
  // The schema as the older version left it, with rows it wrote.
  const old = openDatabase(file, MIGRATIONS.slice(0, index));
  const insert = old.prepare(
    `INSERT INTO intents (id, kind, wallet, request, key_wallet, state, build, tx_hash, block, reason, created_at, updated_at)
     VALUES (?, 'prepare_buy', ?, '{}', ?, ?, NULL, ?, ?, NULL, ?, ?)`,
  );
  const id = (n: number) => `int_${String(n).padStart(24, '0')}`;
  insert.run(id(1), WALLET, KEY_WALLET, 'pending', null, null, 1000, 1000);
  insert.run(id(2), WALLET, null, 'pending', null, null, 2000, 2000);
  insert.run(id(3), WALLET, null, 'built', null, null, 3000, 3000);
  // One hash confirmed two requests: the earlier-made one keeps it.
  insert.run(id(4), WALLET, KEY_WALLET, 'confirmed', HASH, 7, 4000, 9000);
  insert.run(id(5), WALLET, KEY_WALLET, 'confirmed', HASH, 7, 5000, 8000);
  insert.run(id(6), WALLET, null, 'confirmed', `0x${'cd'.repeat(32)}`, 8, 6000, 6000);
  old.close();

  const db = openDatabase(file);
  const intents = new Intents(db, {} as ChainContext);
  const read = (n: number) => intents.get(id(n));
  expect(read(1)).toMatchObject({
    state: 'pending',
    keyWallet: KEY_WALLET,
    source: { kind: 'key', key: { id: null, label: null, wallet: KEY_WALLET }, at: new Date(1000).toISOString() },
  });
  for (const n of [2, 3]) {
    expect(read(n)).toMatchObject({ state: 'failed', source: { kind: 'unknown' } });
    expect(read(n).reason).toMatch(/known source/);
  }
  expect(read(4)).toMatchObject({ state: 'confirmed', tx: { hash: HASH, block: 7 } });
  expect(read(5)).toMatchObject({ state: 'failed', tx: null });
  // A settled request without a key stays as it was: only open ones are closed.
  expect(read(6)).toMatchObject({ state: 'confirmed', source: { kind: 'unknown' } });
  // From now on the store itself refuses a second request with the same hash.
  expect(() => db.prepare('UPDATE intents SET tx_hash = ? WHERE id = ?').run(HASH, id(1))).toThrow(/UNIQUE/);
  db.close();
});
