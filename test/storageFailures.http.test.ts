import { join } from 'node:path';
import Database from 'better-sqlite3';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testAccounts } from '../src-main/chain/devnet/testAccounts';
import { jsonInit } from './support/jsonInit';
import { startTestService, type TestService } from './support/startTestService';

let service: TestService;
const APP_TOKEN = 'storage-failures-app-token';
/** Prepared requests need a known source: these come from the app itself. */
const asApp = { 'x-app-token': APP_TOKEN };
const account = (index: number) => privateKeyToAccount(testAccounts()[index]?.privateKey ?? '0x');

beforeAll(async () => {
  service = await startTestService(undefined, { appToken: APP_TOKEN });
});
afterAll(async () => {
  await service?.dispose();
});

async function call(path: string, init: RequestInit = {}) {
  const response = await fetch(path.startsWith('http') ? path : `${service.url}${path}`, jsonInit(init));
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    body: (await response.json()) as any,
  };
}

async function signedChallenge(path: string, wallet: number) {
  const challenge = await call(`${path}?address=${account(wallet).address}`);
  return {
    nonce: challenge.body.nonce,
    signature: await account(wallet).signMessage({ message: challenge.body.message }),
  };
}

/** Runs `work` while a table of the service's database is gone (renamed by another connection), then puts it back. */
async function withoutTable<T>(table: string, work: () => Promise<T>): Promise<T> {
  const other = new Database(join(service.dataDir, 'app.sqlite'));
  other.exec(`ALTER TABLE ${table} RENAME TO ${table}_away`);
  try {
    return await work();
  } finally {
    other.exec(`ALTER TABLE ${table}_away RENAME TO ${table}`);
    other.close();
  }
}

it('answers KEYS_UNAVAILABLE, SESSIONS_UNAVAILABLE and INTENTS_UNAVAILABLE (503, retry) when storage fails, and recovers', async () => {
  const keyBody = JSON.stringify({ ...(await signedChallenge('/keys/challenge', 3)), label: 'storage' });
  const keys = await withoutTable('api_keys', () => call('/keys', { method: 'POST', body: keyBody }));
  expect(keys.status).toBe(503);
  expect(keys.retryAfter).toBe('5');
  expect(keys.body.error.code).toBe('KEYS_UNAVAILABLE');

  const sessionBody = JSON.stringify(await signedChallenge(`${service.origin}/api/auth/challenge`, 4));
  const sessions = await withoutTable('sessions', () =>
    call(`${service.origin}/api/auth/session`, {
      method: 'POST',
      headers: { origin: service.origin },
      body: sessionBody,
    }),
  );
  expect(sessions.status).toBe(503);
  expect(sessions.body.error.code).toBe('SESSIONS_UNAVAILABLE');

  const intentBody = JSON.stringify({
    kind: 'prepare_buy',
    wallet: account(5).address,
    token: account(6).address,
    amount: '1',
  });
  const intents = await withoutTable('intents', () =>
    call('/intents', { method: 'POST', headers: asApp, body: intentBody }),
  );
  expect(intents.status).toBe(503);
  expect(intents.body.error.code).toBe('INTENTS_UNAVAILABLE');

  // With the tables back, the same requests go through unchanged: a failed write did not use the challenge up.
  const key = await call('/keys', { method: 'POST', body: keyBody });
  expect(key.status).toBe(201);
  const session = await call(`${service.origin}/api/auth/session`, {
    method: 'POST',
    headers: { origin: service.origin },
    body: sessionBody,
  });
  expect(session.status).toBe(200);
  expect((await call('/intents', { method: 'POST', headers: asApp, body: intentBody })).status).toBe(201);
  // A key that cannot be checked is not let through as if there were none.
  const checked = await withoutTable('api_keys', () => call('/settings', { headers: { 'x-api-key': key.body.key } }));
  expect(checked.body.error.code).toBe('KEYS_UNAVAILABLE');
});

it('answers INTENTS_UNAVAILABLE when another program holds the database locked, writes nothing, and recovers', async () => {
  const body = JSON.stringify({
    kind: 'prepare_buy',
    wallet: account(7).address,
    token: account(8).address,
    amount: '2',
  });
  const other = new Database(join(service.dataDir, 'app.sqlite'));
  const count = () => other.prepare('SELECT count(*) FROM intents').pluck().get() as number;
  const before = count();
  // A real lock, held past the service's busy timeout: SQLITE_BUSY, not a table gone.
  other.exec('BEGIN IMMEDIATE');
  let locked: Awaited<ReturnType<typeof call>>;
  try {
    locked = await call('/intents', { method: 'POST', headers: asApp, body });
  } finally {
    other.exec('ROLLBACK');
  }
  expect([locked.status, locked.body.error.code, locked.retryAfter]).toEqual([503, 'INTENTS_UNAVAILABLE', '5']);
  expect(count()).toBe(before);
  const stored = await call('/intents', { method: 'POST', headers: asApp, body });
  expect(stored.status).toBe(201);
  expect(count()).toBe(before + 1);
  other.close();
});
