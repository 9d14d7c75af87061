import { readdirSync } from 'node:fs';
import { get as httpGet } from 'node:http';
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
  const json = (response.headers.get('content-type') ?? '').includes('json');
  return { status: response.status, headers: response.headers, body: text ? (json ? JSON.parse(text) : text) : null };
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

/**
 * Issue 30: reads too. A page elsewhere cannot read what it makes the browser ask, but it can spend what every local
 * client shares (the quote budget, stored challenges, open event streams) and, on /rpc, write. Every family of routes
 * is asked as the browser asks for such a page; each is refused before it does anything, and answers the same request
 * from the app's own page, typed in the address bar, or from a bot.
 */
describe('every route, asked for a page of another origin', () => {
  const TOKEN = '0x00000000000000000000000000000000c0ffee01';
  const RPC = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] });
  /** One request of each family: method, path, the body and headers it needs to be served. */
  const FAMILIES = (): [string, string, { body?: string; type?: string; headers?: Record<string, string> }][] => [
    ['GET', '/api/v1/settings', {}],
    // Plain enough for the lean route in front of the app: it must leave a browser's request to the app's rule.
    ['GET', `/api/v1/quote?token=${TOKEN}&side=buy&amount=1`, {}],
    ['GET', '/api/v1/launches', {}],
    ['GET', '/api/v1/openapi.json', {}],
    ['GET', '/api/v1/errors', {}],
    ['GET', `/api/v1/keys/challenge?address=${account(10).address}`, {}],
    ['POST', '/api/v1/build/buy', { body: '{}', type: 'application/json' }],
    ['GET', `/api/auth/challenge?address=${account(10).address}`, {}],
    [
      'POST',
      '/app/signer.status',
      { body: '{}', type: 'application/json', headers: { authorization: `Bearer ${APP_TOKEN}` } },
    ],
    ['POST', '/rpc', { body: RPC, type: 'application/json' }],
    ['GET', '/media/bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy', {}],
    ['GET', '/', { headers: { 'sec-fetch-dest': 'iframe', 'sec-fetch-mode': 'navigate' } }],
    ['GET', '/assets/nothing.js', { headers: { 'sec-fetch-dest': 'script', 'sec-fetch-mode': 'no-cors' } }],
  ];
  const refusedAs = (answer: Sent) => [answer.status, answer.body?.error?.code];

  it('refuses each family with ORIGIN_NOT_ALLOWED and a fix, for Sec-Fetch-Site cross-site and same-site', async () => {
    const challenges = count('challenges');
    for (const [method, path, request] of FAMILIES()) {
      for (const site of ['cross-site', 'same-site', 'Cross-Site']) {
        const answer = await send(method, path, {
          ...request,
          headers: { ...request.headers, 'sec-fetch-site': site },
        });
        const what = `${method} ${path} ${site}`;
        expect(refusedAs(answer), what).toEqual([403, 'ORIGIN_NOT_ALLOWED']);
        expect(answer.body.error.message, what).toBeTruthy();
        expect(answer.body.error.fix, what).toContain(service.origin);
      }
    }
    expect(count('challenges')).toBe(challenges);
  });

  it("refuses each family with a foreign web Origin, and none of its requests' Origins is ours", async () => {
    const foreign = ['https://evil.example', 'null', `http://127.0.0.1:${port + 1}`, `${service.origin}.evil.example`];
    for (const [method, path, request] of FAMILIES()) {
      for (const origin of foreign) {
        const answer = await send(method, path, { ...request, headers: { ...request.headers, origin } });
        expect(refusedAs(answer), `${method} ${path} from ${origin}`).toEqual([403, 'ORIGIN_NOT_ALLOWED']);
        expect(answer.body.error.fix).toBeTruthy();
      }
    }
  });

  it('serves each family from its own pages, typed in the address bar, and to a bot', async () => {
    const asked: Record<string, string>[] = [
      { 'sec-fetch-site': 'same-origin', origin: service.origin },
      { 'sec-fetch-site': 'same-origin' },
      { 'sec-fetch-site': 'none' },
      {},
    ];
    for (const [method, path, request] of FAMILIES()) {
      for (const headers of asked) {
        // The UI's page in a frame of its own origin, its script: served; only the family's own answer counts here.
        const answer = await send(method, path, { ...request, headers: { ...request.headers, ...headers } });
        expect(answer.body?.error?.code, `${method} ${path} ${JSON.stringify(headers)}`).not.toBe('ORIGIN_NOT_ALLOWED');
        expect(answer.status, `${method} ${path} ${JSON.stringify(headers)}`).not.toBe(403);
      }
    }
  });

  it('refuses the event stream to a page elsewhere before it opens, and streams to a bot', async () => {
    const refused: Record<string, string>[] = [{ 'sec-fetch-site': 'cross-site' }, { origin: 'https://evil.example' }];
    for (const headers of refused) {
      const answer = await send('GET', '/api/v1/events', { headers });
      expect(refusedAs(answer), JSON.stringify(headers)).toEqual([403, 'ORIGIN_NOT_ALLOWED']);
    }
    const stop = new AbortController();
    const stream = await fetch(`${service.url}/events`, { signal: stop.signal, headers: { 'sec-fetch-site': 'none' } });
    expect([stream.status, stream.headers.get('content-type')?.split(';')[0]]).toEqual([200, 'text/event-stream']);
    stop.abort();
  });

  /** A GET with exactly these headers (Node's fetch sets a Sec-Fetch-Mode of its own). */
  const get = (path: string, headers: Record<string, string>) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      httpGet(`${service.origin}${path}`, { headers }, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      }).on('error', reject);
    });

  it('opens a page of the UI for a person who followed a link from another site, and nothing else so', async () => {
    const navigation = { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' };
    for (const site of ['cross-site', 'same-site']) {
      for (const path of ['/', '/settings', `/token/${TOKEN}`]) {
        const page = await get(path, { ...navigation, 'sec-fetch-site': site });
        expect(page.status, `${path} ${site}`).toBe(200);
        expect(page.text).toContain('<div id="root">');
      }
      // The service's own surfaces are no page, even navigated to; nor is a page loaded into a frame elsewhere.
      const refused: [string, Record<string, string>][] = [
        ['/api/v1/settings', navigation],
        [`/api/v1/quote?token=${TOKEN}&side=buy&amount=1`, navigation],
        ['/rpc', navigation],
        ['/media/x', navigation],
        ['/', { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'iframe' }],
        ['/', { 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'document' }],
      ];
      for (const [path, headers] of refused) {
        const answer = await get(path, { ...headers, 'sec-fetch-site': site });
        expect([answer.status, JSON.parse(answer.text).error.code], `${path} ${site}`).toEqual([
          403,
          'ORIGIN_NOT_ALLOWED',
        ]);
      }
    }
  });
});

describe('/rpc, as a page elsewhere and as a wallet', () => {
  const rpc = (body: unknown, type: string | undefined, headers: Record<string, string> = {}) =>
    send('POST', '/rpc', { body: JSON.stringify(body), ...(type ? { type } : {}), headers });
  const call = (method: string, params: unknown[] = []) => ({ jsonrpc: '2.0', id: 1, method, params });
  const blockNumber = async () => BigInt((await rpc(call('eth_blockNumber'), 'application/json')).body.result);
  const writes = [call('evm_mine'), call('evm_increaseTime', [1_000_000]), call('evm_mine')];

  it('refuses JSON-RPC sent as text/plain, a form or with no type, with INVALID_BODY and a fix, and mines nothing', async () => {
    const before = await blockNumber();
    for (const type of ['text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', undefined]) {
      const answer = await rpc(writes, type);
      expect([answer.status, answer.body.error.code], String(type)).toEqual([400, 'INVALID_BODY']);
      expect(answer.body.error.fix).toContain('application/json');
    }
    const multipart = new FormData();
    multipart.set('body', JSON.stringify(writes));
    const form = await fetch(`${service.origin}/rpc`, { method: 'POST', body: multipart });
    expect([form.status, ((await form.json()) as any).error.code]).toEqual([400, 'INVALID_BODY']);
    expect(await blockNumber()).toBe(before);
  });

  it('refuses JSON-RPC from a foreign web origin, even as JSON, and mines nothing', async () => {
    const before = await blockNumber();
    for (const origin of ['https://evil.example', 'null', `http://localhost:${port + 1}`, 'file://']) {
      const answer = await rpc(writes, 'application/json', { origin });
      expect([answer.status, answer.body.error.code], origin).toEqual([403, 'ORIGIN_NOT_ALLOWED']);
    }
    expect(await blockNumber()).toBe(before);
  });

  it("serves a wallet extension's origin, its own pages and a bot: reads and writes", async () => {
    const senders: Record<string, string>[] = [
      { origin: 'chrome-extension://nkbihfbeogaeaoehlefnkodbefgpgknn' },
      // As a browser may mark an extension's own request: its Origin is still the extension's.
      { origin: 'chrome-extension://nkbihfbeogaeaoehlefnkodbefgpgknn', 'sec-fetch-site': 'cross-site' },
      { origin: 'moz-extension://2a5c1e3b-8d6f-4a0e-9b7c-1f2e3d4c5b6a' },
      { origin: service.origin, 'sec-fetch-site': 'same-origin' },
      {},
    ];
    for (const headers of senders) {
      const before = await blockNumber();
      const chainId = await rpc(call('eth_chainId'), 'application/json', headers);
      expect([chainId.status, chainId.body.result], JSON.stringify(headers)).toEqual([200, '0x7a69']);
      const mined = await rpc(call('evm_mine'), 'application/json; charset=utf-8', headers);
      expect(mined.body.result, JSON.stringify(headers)).toBe('0x0');
      expect(await blockNumber()).toBe(before + 1n);
    }
  });
});
