import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { ApiKeys } from '../services/apiKeys';
import { MIGRATIONS } from './migrations';
import { openDatabase } from './openDatabase';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const WALLET = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';
/** A key an older version made: only its hash is stored. */
const OLD_KEY = `lpc_live_${'A1b2'.repeat(10)}`;

it('opens keys stored before budgets: they have none and still work; new keys keep the budget they are given', () => {
  const dir = mkdtempSync(join(tmpdir(), 'companion-db-'));
  dirs.push(dir);
  const file = join(dir, 'app.sqlite');
  const index = MIGRATIONS.findIndex((m) => m.id === '2026-12-03-key-budgets');
  expect(index).toBeGreaterThan(0);
  // The schema as the older version left it, with a key it made.
  const old = openDatabase(file, MIGRATIONS.slice(0, index));
  old
    .prepare(
      `INSERT INTO api_keys (id, wallet, label, secret_hash, hint, created_at, last_used_at, revoked_at)
       VALUES ('key_00000000000000a1', ?, 'old bot', ?, ?, 1000, NULL, NULL)`,
    )
    .run(WALLET, createHash('sha256').update(OLD_KEY).digest('hex'), OLD_KEY.slice(-4));
  old.close();

  const db = openDatabase(file);
  const keys = new ApiKeys(db, true, () => 5000);
  expect(keys.authenticate(OLD_KEY)).toEqual({
    id: 'key_00000000000000a1',
    wallet: WALLET,
    label: 'old bot',
    budget: null,
  });
  const budget = { quotesPerMinute: 600, buildsPerMinute: 120 };
  const made = keys.create(WALLET, 'sniper', budget);
  expect(made.budget).toEqual(budget);
  expect(keys.authenticate(made.key).budget).toEqual(budget);
  expect(keys.list(WALLET).map((entry) => [entry.label, entry.budget])).toEqual([
    ['old bot', null],
    ['sniper', budget],
  ]);
  // A budget of nothing is not a budget: the store refuses it whatever asks.
  expect(() => db.prepare(`UPDATE api_keys SET quotes_per_minute = 0 WHERE id = ?`).run(made.id)).toThrow(
    /CHECK constraint/,
  );
  db.close();
});
