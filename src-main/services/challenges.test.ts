import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ApiError } from '../core/errors';
import { type Db, openDatabase } from '../store/openDatabase';
import { CHALLENGE_TTL_MS, Challenges } from './challenges';

let dir: string;
let db: Db;
let time = 1_800_000_000_000;
const now = () => time;
const rows = () => db.prepare('SELECT COUNT(*) FROM challenges').pluck().get() as number;
/** A distinct address for each number, as a flood of throwaway wallets would send. */
const wallet = (n: number) => `0x${n.toString(16).padStart(40, '0')}` as Address;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'challenges-'));
  db = openDatabase(join(dir, 'app.sqlite'));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const codeOf = (work: () => unknown) => {
  try {
    work();
  } catch (error) {
    return (error as ApiError).code;
  }
  return null;
};

it('keeps at most maxRows rows under a flood from many wallets, refusing the rest with RATE_LIMITED', () => {
  const challenges = new Challenges(db, 31337, now, 50);
  for (let n = 0; n < 50; n++) challenges.issue('key', wallet(n));
  const refused: (string | null)[] = [];
  for (let n = 50; n < 200; n++) refused.push(codeOf(() => challenges.issue('key', wallet(n))));
  expect(new Set(refused)).toEqual(new Set(['RATE_LIMITED']));
  expect(rows()).toBe(50);
  let refusal: unknown;
  try {
    challenges.issue('session', wallet(999));
  } catch (error) {
    refusal = error;
  }
  expect(refusal).toBeInstanceOf(ApiError);
  expect(refusal).toMatchObject({ code: 'RATE_LIMITED', retry: true });
  expect((refusal as ApiError).retryAfterSeconds).toBeGreaterThan(0);
});

it('prunes expired challenges as new ones come, so the table empties once the flood stops', () => {
  const challenges = new Challenges(db, 31337, now, 50);
  for (let n = 0; n < 50; n++) challenges.issue('referral', wallet(n));
  expect(codeOf(() => challenges.issue('referral', wallet(50)))).toBe('RATE_LIMITED');
  // Expired, they are still kept a while, so that a late answer is told "expired" rather than "unknown".
  time += CHALLENGE_TTL_MS + 1;
  expect(codeOf(() => challenges.issue('referral', wallet(50)))).toBe('RATE_LIMITED');
  time += CHALLENGE_TTL_MS;
  expect(codeOf(() => challenges.issue('referral', wallet(51)))).toBeNull();
  expect(rows()).toBe(1);
});

it("keeps every open challenge of a wallet under a flood in its name: the wallet's own still redeems", async () => {
  const account = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
  const challenges = new Challenges(db, 31337, now, 50);
  const own = challenges.issue('key', account.address);
  for (let i = 0; i < 40; i++) challenges.issue('key', account.address);
  expect(rows()).toBe(41);
  const signature = await account.signMessage({ message: own.message });
  expect(await challenges.redeem('key', own.nonce, signature, (w) => w)).toBe(account.address);
});
