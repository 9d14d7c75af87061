import { readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAccounts } from '../src-main/chain/devnet/testAccounts';
import { startTestService, type TestService } from './support/startTestService';
import { APP_TOKEN, webUiOptions } from './support/webUi';

/**
 * Issue 16, from where a hostile web page stands: a page on another origin can make the browser send a `text/plain`
 * POST (or a form, or a body with no type) without asking first, and it cannot forge Origin. Each kind of write is
 * sent as such a page would send it and must be refused with nothing written, checked in the stored state; the same
 * write sent as a bot (no Origin, its own content type) or from the app's own page then goes through, so the refusals
 * were for the origin and the type alone.
 */

let service: TestService;
let port: number;
let db: Database.Database;
/** A live key of BOT_WALLET, for the writes that a key makes (prepared requests, revoking). */
let botKey: string;
let botKeyId: string;

const account = (index: number) => privateKeyToAccount(testAccounts()[index]?.privateKey ?? '0x');
const BOT_WALLET = 3;
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

beforeAll(async () => {
  service = await startTestService(undefined, webUiOptions);
  port = Number(new URL(service.origin).port);
  db = new Database(join(service.dataDir, 'app.sqlite'), { readonly: true });
  const created = await send('POST', '/api/v1/keys', {
    body: JSON.stringify({ ...(await signed('/api/v1/keys/challenge', BOT_WALLET)), label: 'bot' }),
    type: 'application/json',
  });
  expect(created.status).toBe(201);
  botKey = created.body.key;
  botKeyId = created.body.id;
});
afterAll(async () => {
  db?.close();
  await service?.dispose();
});

interface Sent {
  status: number;
  headers: Headers;
  body: any;
}

async function send(
  method: string,
  path: string,
  {
    body,
    type,
    headers = {},
  }: { body?: string | Uint8Array<ArrayBuffer>; type?: string; headers?: Record<string, string> } = {},
): Promise<Sent> {
  const response = await fetch(`${service.origin}${path}`, {
    method,
    headers: { ...(type ? { 'content-type': type } : {}), ...headers },
    ...(body === undefined ? {} : { body }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

/** A challenge of `path` signed by the wallet: valid until it is used once. */
async function signed(path: string, wallet: number) {
  const challenge = await send('GET', `${path}?address=${account(wallet).address}`);
  expect(challenge.status).toBe(200);
  return {
    nonce: challenge.body.nonce as string,
    signature: await account(wallet).signMessage({ message: challenge.body.message }),
  };
}

const count = (table: string) => (db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get() as number) ?? 0;
const mediaFiles = () => {
  try {
    return readdirSync(join(service.dataDir, 'media')).sort();
  } catch {
    return [];
  }
};
const appCall = (operation: string, input: object) =>
  send('POST', `/app/${operation}`, {
    body: JSON.stringify(input),
    type: 'application/json',
    headers: { authorization: `Bearer ${APP_TOKEN}` },
  });
const localKey = async () => (await appCall('signer.status', {})).body.result.localKey;

/** One kind of write: how it is sent, the content type it takes, and what it stores. */
interface Write {
  name: string;
  method: 'POST' | 'DELETE';
  path: string;
  /** Its body, made once: a signed challenge stays valid until a write takes it. */
  body: () => Promise<string | Uint8Array<ArrayBuffer> | undefined>;
  /** The content type the route takes (none for a DELETE without a body). */
  type?: string;
  headers?: Record<string, string>;
  /** What a page elsewhere must not change. */
  stored: () => unknown;
}

const WRITES: Write[] = [
  {
    name: 'a prepared request',
    method: 'POST',
    path: '/api/v1/intents',
    body: async () => JSON.stringify({ kind: 'prepare_buy', wallet: account(BOT_WALLET).address }),
    type: 'application/json',
    headers: { 'x-api-key': '' },
    stored: () => count('intents'),
  },
  {
    name: 'an API key',
    method: 'POST',
    path: '/api/v1/keys',
    body: async () => JSON.stringify({ ...(await signed('/api/v1/keys/challenge', 4)), label: 'planted' }),
    type: 'application/json',
    stored: () => count('api_keys'),
  },
  {
    name: 'a referrer registration',
    method: 'POST',
    path: '/api/v1/referrals/register',
    body: async () => JSON.stringify(await signed('/api/v1/referrals/challenge', 5)),
    type: 'application/json',
    stored: () => count('referrers'),
  },
  {
    name: 'an image upload',
    method: 'POST',
    path: '/api/v1/media/image',
    body: async () => PNG,
    type: 'image/png',
    stored: () => mediaFiles(),
  },
  {
    name: 'a sign-in',
    method: 'POST',
    path: '/api/auth/session',
    body: async () => JSON.stringify(await signed('/api/auth/challenge', 6)),
    type: 'application/json',
    stored: () => count('sessions'),
  },
  {
    name: "the app channel's key import",
    method: 'POST',
    path: '/app/signer.importKey',
    body: async () => JSON.stringify({ privateKey: testAccounts()[7]?.privateKey, passphrase: 'planted by a page' }),
    type: 'application/json',
    headers: { authorization: `Bearer ${APP_TOKEN}` },
    stored: localKey,
  },
  {
    name: 'a key revocation',
    method: 'DELETE',
    path: '/api/v1/keys/{id}',
    body: async () => undefined,
    headers: { 'x-api-key': '' },
    stored: () => db.prepare('SELECT revoked_at FROM api_keys WHERE id = ?').pluck().get(botKeyId),
  },
];

/** The write's headers, with the bot's key filled in where it sends one. */
const headersOf = (write: Write) =>
  Object.fromEntries(Object.entries(write.headers ?? {}).map(([name, value]) => [name, value || botKey]));
const pathOf = (write: Write) => write.path.replace('{id}', botKeyId);

describe('writes from a page on another origin', () => {
  const FOREIGN = () => [
    `http://127.0.0.1:${port + 1}`,
    `http://localhost:${port + 1}`,
    'https://evil.example',
    'null',
    `${service.origin}.evil.example`,
    service.origin.replace('http:', 'https:'),
  ];

  it.each(WRITES)('refuses $name with ORIGIN_NOT_ALLOWED whatever it is sent as, and stores nothing', async (write) => {
    const body = await write.body();
    const before = await write.stored();
    for (const origin of FOREIGN()) {
      // text/plain needs no preflight; the right type would (and the page could not read the answer), yet it must
      // not be taken either; no type at all is what a Blob body or a no-cors fetch sends.
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', write.type, undefined]) {
        const answer = await send(write.method, pathOf(write), {
          ...(body === undefined ? {} : { body }),
          ...(type ? { type } : {}),
          headers: { ...headersOf(write), origin },
        });
        expect([answer.status, answer.body?.error?.code], `${write.name} from ${origin} as ${type}`).toEqual([
          403,
          'ORIGIN_NOT_ALLOWED',
        ]);
        expect(answer.headers.get('set-cookie'), write.name).toBeNull();
      }
    }
    expect(await write.stored(), write.name).toEqual(before);
    // The same write from the app's own page is taken: it was refused for its origin alone.
    const own = await send(write.method, pathOf(write), {
      ...(body === undefined ? {} : { body }),
      ...(write.type ? { type: write.type } : {}),
      headers: { ...headersOf(write), origin: service.origin },
    });
    expect(own.status, `${write.name}: ${JSON.stringify(own.body)}`).toBeLessThan(300);
    expect(await write.stored(), write.name).not.toEqual(before);
  });
});

describe('writes in a content type of their own', () => {
  it('refuses a JSON write sent as text/plain, a form or with no type, even from a bot, and stores nothing', async () => {
    const key = JSON.stringify({ ...(await signed('/api/v1/keys/challenge', 8)), label: 'typed' });
    const keysBefore = count('api_keys');
    for (const type of ['text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', undefined]) {
      // fetch sends a string as text/plain unless told otherwise; bytes go with no type at all.
      const answer = await send('POST', '/api/v1/keys', type ? { body: key, type } : { body: Buffer.from(key) });
      expect([answer.status, answer.body.error.code], String(type)).toEqual([400, 'INVALID_BODY']);
      expect(answer.body.error.message, String(type)).toContain(type ? type.split(';')[0] : 'no Content-Type');
      expect(answer.body.error.fix).toContain('application/json');
    }
    const form = new FormData();
    form.set('nonce', 'x');
    const multipart = await fetch(`${service.url}/keys`, { method: 'POST', body: form });
    expect(((await multipart.json()) as any).error.code).toBe('INVALID_BODY');
    expect(count('api_keys')).toBe(keysBefore);
    // The same body as JSON, with parameters in the header, is taken.
    const taken = await send('POST', '/api/v1/keys', { body: key, type: 'Application/JSON; charset=utf-8' });
    expect(taken.status).toBe(201);
    expect(count('api_keys')).toBe(keysBefore + 1);
  });

  it('refuses an upload that is not declared as an image, and stores nothing', async () => {
    const before = mediaFiles();
    for (const type of ['text/plain', 'application/octet-stream', 'application/json', undefined]) {
      const answer = await send('POST', '/api/v1/media/image', { body: PNG, ...(type ? { type } : {}) });
      expect([answer.status, answer.body.error.code], String(type)).toEqual([415, 'UNSUPPORTED_IMAGE']);
      expect(answer.body.error.message, String(type)).toContain(type ?? 'no Content-Type');
      expect(answer.body.error.fix).toBeTruthy();
    }
    expect(mediaFiles()).toEqual(before);
  });

  it('refuses a DELETE whose body is not JSON, and takes one without a body', async () => {
    const created = await send('POST', '/api/v1/keys', {
      body: JSON.stringify({ ...(await signed('/api/v1/keys/challenge', 9)), label: 'to revoke' }),
      type: 'application/json',
    });
    const path = `/api/v1/keys/${created.body.id}`;
    const headers = { 'x-api-key': created.body.key };
    const plain = await send('DELETE', path, { body: 'x', type: 'text/plain', headers });
    expect([plain.status, plain.body.error.code]).toEqual([400, 'INVALID_BODY']);
    expect(db.prepare('SELECT revoked_at FROM api_keys WHERE id = ?').pluck().get(created.body.id)).toBeNull();
    expect((await send('DELETE', path, { headers })).body.key.revoked).toBe(true);
  });
});

describe('challenges asked for by a page elsewhere', () => {
  const PATHS = ['/api/v1/keys/challenge', '/api/v1/referrals/challenge', '/api/auth/challenge'];

  it('are refused before anything is stored, and given to bots and to the own pages', async () => {
    const before = count('challenges');
    for (const path of PATHS) {
      // A no-cors GET sends no Origin; the browser says where the page is in Sec-Fetch-Site.
      for (const site of ['cross-site', 'same-site']) {
        const answer = await send('GET', `${path}?address=${account(10).address}`, {
          headers: { 'sec-fetch-site': site },
        });
        expect([answer.status, answer.body.error.code], `${path} ${site}`).toEqual([403, 'ORIGIN_NOT_ALLOWED']);
      }
    }
    expect(count('challenges')).toBe(before);
    for (const path of PATHS) {
      const asked: Record<string, string>[] = [{ 'sec-fetch-site': 'same-origin' }, { 'sec-fetch-site': 'none' }, {}];
      for (const headers of asked) {
        const answer = await send('GET', `${path}?address=${account(10).address}`, { headers });
        expect(answer.status, `${path} ${JSON.stringify(headers)}`).toBe(200);
      }
    }
    expect(count('challenges')).toBe(before + 9);
  });
});

describe('a body over the limit', () => {
  const TWELVE_MB = 12 * 1024 * 1024;

  it("answers 413 to Node's fetch writing a 12 MB body, on a JSON route and on the upload", async () => {
    const big = Buffer.alloc(TWELVE_MB, 'x');
    const json = await fetch(`${service.url}/build/buy`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: big,
    });
    expect([json.status, ((await json.json()) as any).error.code]).toEqual([413, 'BODY_TOO_LARGE']);
    const image = await fetch(`${service.url}/media/image`, {
      method: 'POST',
      headers: { 'content-type': 'image/png' },
      body: Buffer.concat([PNG, big]),
    });
    expect([image.status, ((await image.json()) as any).error.code]).toEqual([413, 'IMAGE_TOO_LARGE']);
    // Refused before a byte is read, for its type or its origin: the answer still reaches the sender.
    const plain = await fetch(`${service.url}/build/buy`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: big,
    });
    expect([plain.status, ((await plain.json()) as any).error.code]).toEqual([400, 'INVALID_BODY']);
    const foreign = await fetch(`${service.url}/build/buy`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body: big,
    });
    expect([foreign.status, ((await foreign.json()) as any).error.code]).toEqual([403, 'ORIGIN_NOT_ALLOWED']);
    expect((await fetch(`${service.url}/settings`)).status).toBe(200);
  });

  /**
   * A client that writes its whole body, in pieces as a slow link delivers them, and reads only then. It tells whether
   * a write failed (EPIPE, a reset), whether the server closed the connection before the body was all written, and
   * what it read.
   */
  function writeThenRead(path: string, type: string, total: number) {
    return new Promise<{ failed: string | null; closedEarly: boolean; answer: string }>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      let answer = '';
      let failed: string | null = null;
      let written = false;
      let closedEarly = false;
      socket.setEncoding('latin1');
      socket.on('data', (chunk: string) => {
        answer += chunk;
      });
      socket.on('error', (error: NodeJS.ErrnoException) => {
        failed = error.code ?? error.message;
      });
      socket.on('close', () => {
        closedEarly = !written;
        resolve({ failed, closedEarly, answer });
      });
      socket.on('connect', async () => {
        socket.write(
          `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: ${type}\r\n` +
            `Content-Length: ${total}\r\nConnection: close\r\n\r\n`,
        );
        const piece = Buffer.alloc(128 * 1024, 'x');
        for (let sent = 0; sent < total; sent += piece.length) {
          if (socket.destroyed) return;
          // A pause between pieces, as a slow link makes them, so the answer is ready long before the body ends.
          await new Promise((next) => setTimeout(next, 20));
          if (socket.destroyed) return;
          if (!socket.write(piece.subarray(0, Math.min(piece.length, total - sent)))) {
            await new Promise((next) => socket.once('drain', next));
          }
        }
        written = true;
      });
    });
  }

  it('answers 413 to a client that writes all 12 MB slowly before reading', async () => {
    for (const [path, type, code] of [
      ['/api/v1/build/buy', 'application/json', 'BODY_TOO_LARGE'],
      ['/api/v1/media/image', 'image/png', 'IMAGE_TOO_LARGE'],
    ]) {
      const { failed, closedEarly, answer } = await writeThenRead(path as string, type as string, TWELVE_MB);
      expect(failed, path).toBeNull();
      expect(closedEarly, path).toBe(false);
      expect(answer, path).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer, path).toContain(`"code":"${code}"`);
    }
  }, 60_000);
});
