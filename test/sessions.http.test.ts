import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAccounts } from '../src-main/chain/devnet/testAccounts';
import { jsonInit } from './support/jsonInit';
import { startTestService, type TestService } from './support/startTestService';
import { expectNotStored } from './support/storedFiles';

let offsetMs = 0;
const now = () => Date.now() + offsetMs;
let service: TestService;
let auth: string;

const account = (index: number) => privateKeyToAccount(testAccounts()[index]?.privateKey ?? '0x');

beforeAll(async () => {
  service = await startTestService(undefined, { now });
  auth = `${service.origin}/api/auth`;
});
afterAll(async () => {
  await service?.dispose();
});

/** What the app's pages send with every request: a signed-in request without it is refused (CSRF_REQUIRED). */
const CSRF = { 'x-mm-csrf': '1' };

async function call(url: string, init: RequestInit = {}) {
  const response = await fetch(url, jsonInit(init));
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

/** A signed session challenge of the wallet. */
async function signedChallenge(path: string, wallet: number) {
  const challenge = await call(`${path}?address=${account(wallet).address}`);
  expect(challenge.status).toBe(200);
  return {
    nonce: challenge.body.nonce as string,
    signature: await account(wallet).signMessage({ message: challenge.body.message }),
  };
}

/** Signs in as the wallet from the server's own page; returns the cookie to send back. */
async function signIn(wallet: number): Promise<string> {
  const answer = await call(`${auth}/session`, {
    method: 'POST',
    headers: { origin: service.origin },
    body: JSON.stringify(await signedChallenge(`${auth}/challenge`, wallet)),
  });
  expect(answer.status).toBe(200);
  const cookie = answer.headers.get('set-cookie') ?? '';
  return cookie.split(';')[0] as string;
}

describe('browser sign-in', () => {
  it('starts a 30-day session in an HttpOnly, SameSite=Strict cookie for a signed challenge from its own page', async () => {
    const answer = await call(`${auth}/session`, {
      method: 'POST',
      headers: { origin: service.origin },
      body: JSON.stringify(await signedChallenge(`${auth}/challenge`, 12)),
    });
    expect(answer.status).toBe(200);
    expect(answer.body.wallet).toBe(account(12).address);
    expect(Date.parse(answer.body.expiresAt) - Date.parse(answer.body.createdAt)).toBe(30 * 24 * 3600 * 1000);
    const cookie = answer.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^lpc_session=[0-9a-f]{64};/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Max-Age=2592000/);
    const session = await call(`${auth}/session`, { headers: { cookie: cookie.split(';')[0] as string, ...CSRF } });
    expect(session.body.wallet).toBe(account(12).address);
  });

  it('refuses sign-in from another page or none, and keeps the challenge for the right one', async () => {
    const pair = await signedChallenge(`${auth}/challenge`, 13);
    for (const headers of [{}, { origin: 'http://evil.example' }, { origin: 'http://127.0.0.1:1' }] as Record<
      string,
      string
    >[]) {
      const refused = await call(`${auth}/session`, { method: 'POST', headers, body: JSON.stringify(pair) });
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('ORIGIN_NOT_ALLOWED');
    }
    const taken = await call(`${auth}/session`, {
      method: 'POST',
      headers: { origin: service.origin },
      body: JSON.stringify(pair),
    });
    expect(taken.status).toBe(200);
  });

  it('refuses contract wallets, which cannot sign by key', async () => {
    const settings = (await call(`${service.url}/settings`)).body;
    const answer = await call(`${auth}/challenge?address=${settings.contracts.factory}`);
    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe('SMART_WALLET_UNSUPPORTED');
  });

  it('answers NO_SESSION, SESSION_WALLET_MISMATCH and SESSION_EXPIRED as they stand', async () => {
    expect((await call(`${auth}/session`)).body.error.code).toBe('NO_SESSION');
    expect(
      (await call(`${auth}/session`, { headers: { cookie: 'lpc_session=nonsense', ...CSRF } })).body.error.code,
    ).toBe('NO_SESSION');
    const cookie = await signIn(14);
    const mismatch = await call(`${auth}/session?wallet=${account(15).address}`, { headers: { cookie, ...CSRF } });
    expect(mismatch.status).toBe(401);
    expect(mismatch.body.error.code).toBe('SESSION_WALLET_MISMATCH');
    offsetMs = 30 * 24 * 3600 * 1000 + 1000;
    const expired = await call(`${auth}/session`, { headers: { cookie, ...CSRF } });
    offsetMs = 0;
    expect(expired.status).toBe(401);
    expect(expired.body.error.code).toBe('SESSION_EXPIRED');
  });

  it('needs x-mm-csrf on every signed-in request, reads included, and lets the session list and revoke its keys', async () => {
    const cookie = await signIn(16);
    for (const path of [`${service.url}/keys`, `${auth}/session`, `${service.url}/settings`]) {
      const read = await call(path, { headers: { cookie } });
      expect([read.status, read.body.error?.code], path).toEqual([403, 'CSRF_REQUIRED']);
    }
    const body = JSON.stringify({
      ...(await signedChallenge(`${service.url}/keys/challenge`, 16)),
      label: 'from the browser',
    });
    const noHeader = await call(`${service.url}/keys`, { method: 'POST', headers: { cookie }, body });
    expect(noHeader.status).toBe(403);
    expect(noHeader.body.error.code).toBe('CSRF_REQUIRED');
    const created = await call(`${service.url}/keys`, { method: 'POST', headers: { cookie, 'x-mm-csrf': '1' }, body });
    expect(created.status).toBe(201);
    const list = await call(`${service.url}/keys`, { headers: { cookie, ...CSRF } });
    expect(list.body.keys.map((k: { id: string }) => k.id)).toEqual([created.body.id]);
    const other = await call(`${service.url}/keys?wallet=${account(17).address}`, { headers: { cookie, ...CSRF } });
    expect(other.body.error.code).toBe('SESSION_WALLET_MISMATCH');
    const revokeWithout = await call(`${service.url}/keys/${created.body.id}`, {
      method: 'DELETE',
      headers: { cookie },
    });
    expect(revokeWithout.body.error.code).toBe('CSRF_REQUIRED');
    const revoked = await call(`${service.url}/keys/${created.body.id}`, {
      method: 'DELETE',
      headers: { cookie, 'x-mm-csrf': '1' },
    });
    expect(revoked.body.key.revoked).toBe(true);
  });

  it('signs out, and keeps no session secret in clear', async () => {
    const cookie = await signIn(18);
    const secret = cookie.split('=')[1] as string;
    expectNotStored(service.dataDir, secret);
    const out = await call(`${auth}/session`, { method: 'DELETE', headers: { cookie, 'x-mm-csrf': '1' } });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/lpc_session=;/);
    expect((await call(`${auth}/session`, { headers: { cookie, ...CSRF } })).body.error.code).toBe('NO_SESSION');
  });
});
