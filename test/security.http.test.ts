import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAccounts } from '../src-main/chain/devnet/testAccounts';
import { jsonInit } from './support/jsonInit';
import { startTestService, type TestService } from './support/startTestService';
import { APP_TOKEN, webUiOptions } from './support/webUi';

/**
 * The attacks a local signing service must shrug off, beyond what the feature tests already check:
 * - test/http.test.ts: the Host check on /api/v1/settings and /rpc, INVALID_JSON/INVALID_BODY, BODY_TOO_LARGE on
 *   /build/buy (with and without Content-Length);
 * - test/sessions.http.test.ts: sign-in refused from no Origin, http://evil.example and another port; CSRF_REQUIRED on
 *   POST /keys and DELETE /keys/{id}; cookie flags;
 * - test/accounts.http.test.ts: reused, expired and wrong-wallet referral challenges, a key challenge reused;
 * - test/media.test.ts: IMAGE_TOO_LARGE at 5 MB + 1 byte, two encoded traversals under /media;
 * - test/appChannel.http.test.ts: an empty and a short wrong token, Origin https://evil.example.
 * Here: the other surfaces and the other spellings of each attack.
 */

const root = join(import.meta.dirname, '..');
let service: TestService;
let port: string;

const account = (index: number) => privateKeyToAccount(testAccounts()[index]?.privateKey ?? '0x');

beforeAll(async () => {
  service = await startTestService(undefined, webUiOptions);
  port = new URL(service.origin).port;
});
afterAll(async () => {
  await service?.dispose();
});

interface Raw {
  status: number;
  headers: string;
  body: string;
}

/**
 * One request written on the socket as given: fetch would normalise the path ("%2e%2e" is ".." to a URL parser) and
 * will not send a Host of our choosing. `host: null` sends none (HTTP/1.0, since HTTP/1.1 requires one).
 */
function raw(
  path: string,
  { method = 'GET', host = `127.0.0.1:${port}` as string | null, headers = {}, body = '' } = {},
) {
  const head = [`${method} ${path} ${host === null ? 'HTTP/1.0' : 'HTTP/1.1'}`, 'Connection: close'];
  if (host !== null) head.push(`Host: ${host}`);
  for (const [name, value] of Object.entries(headers as Record<string, string>)) head.push(`${name}: ${value}`);
  if (body) head.push(`Content-Length: ${Buffer.byteLength(body)}`);
  return new Promise<Raw>((resolve, reject) => {
    // Written, not ended: a half-closed socket may be closed by the server before a streamed answer is out.
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(`${head.join('\r\n')}\r\n\r\n${body}`));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const split = text.indexOf('\r\n\r\n');
      const headers = text.slice(0, split).toLowerCase();
      let rest = text.slice(split + 4);
      if (headers.includes('transfer-encoding: chunked')) {
        let decoded = '';
        for (;;) {
          const line = rest.indexOf('\r\n');
          const size = Number.parseInt(rest.slice(0, line), 16);
          if (!size) break;
          decoded += rest.slice(line + 2, line + 2 + size);
          rest = rest.slice(line + 2 + size + 2);
        }
        rest = decoded;
      }
      resolve({ status: Number(text.split(' ')[1]), headers, body: rest });
    });
  });
}

const codeOf = (answer: Raw): string | undefined => {
  try {
    return JSON.parse(answer.body).error?.code;
  } catch {
    return undefined;
  }
};

async function call(url: string, init: RequestInit = {}) {
  const response = await fetch(url, jsonInit(init));
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : null) as any };
}

async function healthy() {
  const settings = await call(`${service.url}/settings`);
  expect(settings.status).toBe(200);
  expect(settings.body.apiVersion).toBe(1);
}

/** A signed challenge of `path` (a full URL) for the wallet. */
async function signed(path: string, wallet: number) {
  const challenge = await call(`${path}?address=${account(wallet).address}`);
  expect(challenge.status).toBe(200);
  return {
    nonce: challenge.body.nonce as string,
    signature: await account(wallet).signMessage({ message: challenge.body.message }),
  };
}

async function signIn(wallet: number): Promise<string> {
  const answer = await call(`${service.origin}/api/auth/session`, {
    method: 'POST',
    headers: { origin: service.origin },
    body: JSON.stringify(await signed(`${service.origin}/api/auth/challenge`, wallet)),
  });
  expect(answer.status).toBe(200);
  return (answer.headers.get('set-cookie') ?? '').split(';')[0] as string;
}

describe('DNS rebinding: a Host that is not a loopback name', () => {
  const HOSTS = [
    'evil.com',
    '127.0.0.1.evil.com',
    'localhost.evil.com:8787',
    'localhost.evil.com',
    'evil.com:8787',
    '127.0.0.2',
    '0.0.0.0',
    '2130706433',
    '0x7f000001',
    '',
    ' ',
    '[::2]',
    '[::]',
    '[fe80::1]',
    '[::ffff:c0a8:10a]:8787',
    '::1',
    '[::1].evil.com',
    '127.0.0.1:80.evil.com',
    null,
  ];
  // Hosts the URL parser rewrites or rejects: the adapter answers them itself (below). Among them the two spellings
  // the loopback-name check alone would take, since it reads only up to "]" or the last ":".
  const ADAPTER_REFUSED = ['2130706433', '0x7f000001', '::1', '[::1].evil.com', '127.0.0.1:80.evil.com'];
  const SURFACES: [string, string, string?][] = [
    ['GET', '/api/v1/settings'],
    ['GET', '/api/v1/openapi.json'],
    ['GET', '/api/auth/challenge'],
    ['POST', '/api/auth/session', '{}'],
    ['POST', '/rpc', '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}'],
    ['POST', '/app/signer.status', '{}'],
    ['GET', `/media/bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy`],
    ['GET', '/'],
    ['GET', '/settings'],
    ['GET', '/assets/nothing.js'],
  ];

  it('is refused with ORIGIN_NOT_ALLOWED on every surface: API, sign-in, /rpc, /app, /media and the web UI', async () => {
    for (const [method, path, body] of SURFACES) {
      for (const host of HOSTS) {
        const headers: Record<string, string> = path.startsWith('/app/')
          ? { authorization: `Bearer ${APP_TOKEN}`, 'content-type': 'application/json' }
          : {};
        const answer = await raw(path, { method, host, headers, body: body ?? '' });
        const what = `${method} ${path} Host ${JSON.stringify(host)}`;
        if (host !== null && ADAPTER_REFUSED.includes(host)) {
          // @hono/node-server answers a bare 400, before the app runs, for a Host the URL parser rewrites (2130706433
          // is 127.0.0.1 to it) or rejects: refused all the same, never served.
          expect([answer.status, answer.body], what).toEqual([400, '']);
        } else {
          expect([answer.status, codeOf(answer)], what).toEqual([403, 'ORIGIN_NOT_ALLOWED']);
        }
      }
    }
  });

  it('lets the loopback names through, to the web UI and the API', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
      expect((await raw('/', { host })).status, host).toBe(200);
      expect((await raw('/api/v1/settings', { host })).status, host).toBe(200);
    }
  });
});

describe('cross-origin sign-in', () => {
  it('is refused from a foreign page, a sandboxed page and a look-alike of our own origin', async () => {
    const pair = await signed(`${service.origin}/api/auth/challenge`, 11);
    for (const origin of [
      'https://evil.example',
      'null',
      `${service.origin}.evil.example`,
      `${service.origin}@evil.example`,
      service.origin.replace('http:', 'https:'),
      `http://127.0.0.1.evil.example:${port}`,
    ]) {
      const answer = await call(`${service.origin}/api/auth/session`, {
        method: 'POST',
        headers: { origin },
        body: JSON.stringify(pair),
      });
      expect([answer.status, answer.body.error?.code], origin).toEqual([403, 'ORIGIN_NOT_ALLOWED']);
    }
  });
});

describe('CSRF with a session cookie', () => {
  let cookie: string;
  beforeAll(async () => {
    cookie = await signIn(10);
  });

  it('refuses every write of the API and of sign-in without x-mm-csrf: 1, whatever else it sends', async () => {
    const document = (await call(`${service.url}/openapi.json`)).body;
    const writes: [string, string][] = [];
    for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, any>>)) {
      for (const [method, op] of Object.entries(item)) {
        if (method === 'get') continue;
        const base = op.servers?.[0]?.url ?? document.servers[0].url;
        writes.push([method.toUpperCase(), `${base}${path.replace(/\{[^}]+\}/g, 'x')}`]);
      }
    }
    expect(writes.length).toBeGreaterThanOrEqual(10);
    for (const [method, path] of writes) {
      // ("1 " would be "1": HTTP trims header values.)
      for (const csrf of [undefined, '0', '', 'true', 'yes', '11', '01']) {
        const headers: Record<string, string> = { cookie, 'content-type': 'application/json' };
        if (csrf !== undefined) headers['x-mm-csrf'] = csrf;
        const answer = await call(`${service.origin}${path}`, { method, headers, body: '{}' });
        expect([answer.status, answer.body?.error?.code], `${method} ${path} x-mm-csrf ${csrf}`).toEqual([
          403,
          'CSRF_REQUIRED',
        ]);
      }
    }
  });

  // Issue 16: reads too, as the spec words it (they were let through without the header before).
  it('refuses every signed-in read without x-mm-csrf: 1 as well, and answers it with the header', async () => {
    for (const path of ['/api/auth/session', '/api/v1/keys', '/api/v1/settings', '/api/v1/launches']) {
      const without = await call(`${service.origin}${path}`, { headers: { cookie } });
      expect([without.status, without.body?.error?.code], path).toEqual([403, 'CSRF_REQUIRED']);
      const sent = await call(`${service.origin}${path}`, { headers: { cookie, 'x-mm-csrf': '1' } });
      expect(sent.status, path).toBe(200);
    }
  });
});

describe('replayed challenges', () => {
  it('takes a sign-in challenge once: the same nonce and signature again is INVALID_SIGNATURE', async () => {
    const pair = JSON.stringify(await signed(`${service.origin}/api/auth/challenge`, 12));
    const send = () =>
      call(`${service.origin}/api/auth/session`, { method: 'POST', headers: { origin: service.origin }, body: pair });
    expect((await send()).status).toBe(200);
    const replay = await send();
    expect([replay.status, replay.body.error.code]).toEqual([401, 'INVALID_SIGNATURE']);
  });

  it('does not take a challenge signed for one purpose at another', async () => {
    const session = await signed(`${service.origin}/api/auth/challenge`, 13);
    const asKey = await call(`${service.url}/keys`, {
      method: 'POST',
      body: JSON.stringify({ ...session, label: 'x' }),
    });
    expect([asKey.status, asKey.body.error.code]).toEqual([401, 'INVALID_SIGNATURE']);
    const referral = await signed(`${service.url}/referrals/challenge`, 13);
    const asSession = await call(`${service.origin}/api/auth/session`, {
      method: 'POST',
      headers: { origin: service.origin },
      body: JSON.stringify(referral),
    });
    expect([asSession.status, asSession.body.error.code]).toEqual([401, 'INVALID_SIGNATURE']);
  });

  it('takes a referral registration once: a replay is INVALID_SIGNATURE', async () => {
    const pair = JSON.stringify(await signed(`${service.url}/referrals/challenge`, 14));
    const send = () => call(`${service.url}/referrals/register`, { method: 'POST', body: pair });
    expect((await send()).status).toBe(200);
    const replay = await send();
    expect([replay.status, replay.body.error.code]).toEqual([401, 'INVALID_SIGNATURE']);
  });
});

// IMAGE_TOO_LARGE over 5 MB, with and without Content-Length, and the server answering after, is test/media.test.ts's.
describe('oversized bodies', () => {
  it('refuses a JSON body over 64 KiB with BODY_TOO_LARGE on every JSON write, and stays healthy', async () => {
    const big = JSON.stringify({ pad: 'x'.repeat(64 * 1024) });
    for (const path of [
      '/api/v1/build/sell',
      '/api/v1/build/launch',
      '/api/v1/build/claim',
      '/api/v1/intents',
      '/api/v1/keys',
      '/api/v1/referrals/register',
      '/api/auth/session',
    ]) {
      const answer = await call(`${service.origin}${path}`, {
        method: 'POST',
        headers: { origin: service.origin, 'content-type': 'application/json' },
        body: big,
      });
      expect([answer.status, answer.body.error.code], path).toEqual([413, 'BODY_TOO_LARGE']);
    }
    await healthy();
  });

  it('answers a request head over 16 KiB (a runaway URL or header) with the Error object, not a bare 431', async () => {
    const longQuery = await raw(`/api/v1/quote?token=${'0'.repeat(20_000)}&side=buy&amount=1`);
    expect(longQuery.status).toBe(413);
    expect(JSON.parse(longQuery.body).error.code).toBe('BODY_TOO_LARGE');
    const longHeader = await raw('/api/v1/settings', { headers: { 'x-api-key': 'k'.repeat(20_000) } });
    expect([longHeader.status, JSON.parse(longHeader.body).error.code]).toEqual([413, 'BODY_TOO_LARGE']);
    // On a kept-alive connection too, once an answer has already gone out on it.
    const kept = await new Promise<string>((resolve, reject) => {
      let text = '';
      const socket = connect(Number(port), '127.0.0.1', () =>
        socket.write(`GET /api/v1/settings HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`),
      );
      socket.setEncoding('latin1');
      socket.on('data', (chunk: string) => {
        const first = text === '';
        text += chunk;
        if (first)
          socket.write(`GET /api/v1/quote?token=${'0'.repeat(20_000)} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
      });
      socket.on('error', reject);
      socket.on('close', () => resolve(text));
    });
    expect(kept).toMatch(/^HTTP\/1\.1 200 /);
    expect(kept).toMatch(/HTTP\/1\.1 413 [\s\S]*"code":"BODY_TOO_LARGE"/);
    // Bytes that are not HTTP at all still get a bare 400, and the server goes on.
    const garbage = await raw('/api/v1/settings', { method: 'G E T' });
    expect(garbage.status).toBe(400);
    await healthy();
  });
});

describe('path traversal', () => {
  const sqlite = 'SQLite format 3';
  const packageJson = readFileSync(join(root, 'package.json'), 'latin1');
  const index = readFileSync(join(root, 'out/web/index.html'), 'latin1');
  const leaked = (answer: Raw) =>
    answer.body.includes(sqlite) || answer.body.includes('root:x:0:0') || answer.body === packageJson;

  it('never serves a file from outside the media store under /media', async () => {
    for (const path of [
      '/media/..%2f..%2fetc%2fpasswd',
      '/media/%2e%2e/app.sqlite',
      '/media/%2e%2e%2fapp.sqlite',
      '/media/..%5capp.sqlite',
      '/media/..%5c..%5c..%5cetc%5cpasswd',
      '/media/%252e%252e%252fapp.sqlite',
      '/media/..%c0%afapp.sqlite',
      '/media/app.sqlite%00',
      '/media/%00',
      '/media/....//app.sqlite',
      '/media/../app.sqlite',
      '/media/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
    ]) {
      const answer = await raw(path);
      expect(leaked(answer), path).toBe(false);
      // One segment reaches /media/:cid and is NOT_FOUND; more segments are not a media path, and the web UI answers
      // them with its own page (a client-side route), never with a file.
      if (answer.status === 200) expect(answer.body, path).toBe(index);
      else expect([answer.status, codeOf(answer)], path).toEqual([404, 'NOT_FOUND']);
    }
  });

  it('never serves a file from outside the web root, whatever the encoding', async () => {
    for (const path of [
      '/../package.json',
      '/..%2f..%2fpackage.json',
      '/%2e%2e/%2e%2e/package.json',
      '/assets/..%2f..%2f..%2fpackage.json',
      '/assets/%2e%2e%2f%2e%2e%2f%2e%2e%2fpackage.json',
      '/..%5c..%5cpackage.json',
      '/assets/..%5c..%5c..%5cpackage.json',
      '/%252e%252e/%252e%252e/package.json',
      '/package.json%00.js',
      '/..\\..\\package.json',
      '/media/..\\..\\app.sqlite',
      '/assets/%00../../../package.json',
      `/..%2f..%2f${encodeURIComponent(service?.dataDir ?? '')}%2fapp.sqlite`,
    ]) {
      const answer = await raw(path);
      expect(leaked(answer), path).toBe(false);
      // The web UI answers unknown paths with its own page (client-side routes); either that or a 4xx.
      if (answer.status === 200) expect(answer.body, path).toBe(index);
      else expect(answer.status, path).toBeGreaterThanOrEqual(400);
      expect(answer.status, path).toBeLessThan(500);
    }
  });
});

describe('API keys', () => {
  it('looks a key up by its SHA-256 digest in the database, never by comparing secrets', () => {
    const source = readFileSync(join(root, 'src-main/services/apiKeys.ts'), 'utf8');
    expect(source).toMatch(/createHash\('sha256'\)/);
    expect(source).toMatch(/WHERE secret_hash = \?/);
    expect(source).toMatch(/byHash\.get\(hashOf\(key\)\)/);
  });

  it('refuses a key that differs from a live one only in its last character, or in its length', async () => {
    const pair = await signed(`${service.url}/keys/challenge`, 15);
    const created = await call(`${service.url}/keys`, {
      method: 'POST',
      body: JSON.stringify({ ...pair, label: 'x' }),
    });
    expect(created.status).toBe(201);
    const key = created.body.key as string;
    const last = key.slice(-1);
    const near = [
      `${key.slice(0, -1)}${last === 'a' ? 'b' : 'a'}`,
      key.slice(0, -1),
      `${key}a`,
      key.toUpperCase(),
      key.replace('_live_', '_test_'),
    ];
    for (const wrong of near) {
      const answer = await call(`${service.url}/keys`, { headers: { 'x-api-key': wrong } });
      expect([answer.status, answer.body.error.code], wrong).toEqual([401, 'INVALID_API_KEY']);
    }
    expect((await call(`${service.url}/keys`, { headers: { 'x-api-key': key } })).status).toBe(200);
  });
});

describe('the app channel token and origin', () => {
  const post = (headers: Record<string, string>) =>
    call(`${service.origin}/app/signer.status`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: '{}',
    });

  it('compares the token as SHA-256 digests with timingSafeEqual', () => {
    const source = readFileSync(join(root, 'src-main/http/appChannelRoute.ts'), 'utf8');
    expect(source).toMatch(/timingSafeEqual\(digest\(bearer\), expected\)/);
    expect(source).toMatch(/createHash\('sha256'\)/);
    expect(source).not.toMatch(/bearer\s*[!=]==?\s*token|token\s*[!=]==?\s*bearer/);
  });

  it('answers APP_TOKEN_REQUIRED for wrong tokens of every length and for other schemes', async () => {
    const last = APP_TOKEN.slice(-1);
    for (const authorization of [
      'Bearer a',
      `Bearer ${APP_TOKEN.slice(0, -1)}`,
      `Bearer ${APP_TOKEN.slice(0, -1)}${last === 'x' ? 'y' : 'x'}`,
      `Bearer ${APP_TOKEN}x`,
      `Bearer ${'x'.repeat(10_000)}`,
      `bearer ${APP_TOKEN}`,
      `Basic ${APP_TOKEN}`,
      APP_TOKEN,
      `Bearer  ${APP_TOKEN}`,
      `Bearer ${APP_TOKEN} extra`,
    ]) {
      const answer = await post({ authorization });
      expect([answer.status, answer.body.error.code], authorization.slice(0, 60)).toEqual([401, 'APP_TOKEN_REQUIRED']);
    }
    expect((await post({ authorization: `Bearer ${APP_TOKEN}` })).status).toBe(200);
  });

  it('refuses a foreign Origin even with the right token', async () => {
    for (const origin of [
      'null',
      `${service.origin}.evil.example`,
      `http://localhost.evil.example:${port}`,
      service.origin.replace('http:', 'https:'),
    ]) {
      const answer = await post({ authorization: `Bearer ${APP_TOKEN}`, origin });
      expect([answer.status, answer.body.error.code], origin).toEqual([403, 'ORIGIN_NOT_ALLOWED']);
    }
  });
});

describe('framing of the web UI', () => {
  it('refuses to be framed on its page, its client-side routes and its assets', async () => {
    const index = readFileSync(join(root, 'out/web/index.html'), 'utf8');
    const asset = /src="(\/assets\/[^"]+)"/.exec(index)?.[1] ?? '/assets/missing.js';
    for (const path of ['/', '/settings', '/tokens/0x0000000000000000000000000000000000000001', asset]) {
      const response = await fetch(`${service.origin}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('x-frame-options'), path).toBe('DENY');
      expect(response.headers.get('content-security-policy'), path).toBe("frame-ancestors 'none'");
      await response.arrayBuffer();
    }
  });
});
