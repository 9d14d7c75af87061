import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { OpenAPIHono } from '@hono/zod-openapi';
import { validate } from '@readme/openapi-parser';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, type ErrorCode } from '../src-main/core/errors';
import { rawCid } from '../src-main/core/media/cid';
import type { AppEnv } from '../src-main/http/env';
import { errorHandler, notFound } from '../src-main/http/errorHandler';
import { MEDIA_UPLOAD_PATH, mediaRoute, mediaServeRoute } from '../src-main/http/routes/mediaRoute';
import { lineLogger } from '../src-main/log/createLogger';
import { canonicalJson, checkTokenDetails } from '../src-main/services/media/tokenMetadata';
import { MAX_IMAGE_BYTES, MediaStore } from '../src-main/services/mediaStore';

// 1x1 images, each a complete file its format's decoders accept (checked with file(1) and, for the PNG, its CRCs).
const b64 = (text: string) => new Uint8Array(Buffer.from(text, 'base64'));
const IMAGES = {
  png: b64('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='),
  gif: b64('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7'),
  webp: b64('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA=='),
  jpeg: b64(
    '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////' +
      '////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
  ),
} as const;
const MIME = { png: 'image/png', gif: 'image/gif', webp: 'image/webp', jpeg: 'image/jpeg' } as const;
const PNG = IMAGES.png;

/** `size` bytes that start as a PNG, so only their size is wrong. */
function pngOfSize(size: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  bytes.set(PNG);
  return bytes;
}

/** A body of `size` bytes sent in chunks with no Content-Length (chunked transfer encoding). */
function streamedPng(size: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= size) return controller.close();
      const part = new Uint8Array(Math.min(64 * 1024, size - sent));
      if (sent === 0) part.set(PNG);
      controller.enqueue(part);
      sent += part.length;
    },
  });
}

async function codeOf(promise: Promise<unknown>): Promise<{ code: ErrorCode | 'ok'; field?: string }> {
  try {
    await promise;
    return { code: 'ok' };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { code: error.code, ...(error.field ? { field: error.field } : {}) };
  }
}

interface Running {
  origin: string;
  close(): Promise<void>;
}

async function listen(server: Server): Promise<Running> {
  if (!server.listening) await once(server, 'listening');
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const log: string[] = [];

/** The v1 app with only the media route, under /api/v1 of a root app that also serves /media/:cid: a real server. */
async function startApp(media: MediaStore, uploadsPerMinute: number | false): Promise<Running & { api: string }> {
  const api = new OpenAPIHono<AppEnv>();
  mediaRoute(api, media, { uploadsPerMinute });
  api.notFound(notFound);
  api.onError(errorHandler(lineLogger((line) => log.push(line))));
  const root = new Hono();
  root.route('/api/v1', api);
  mediaServeRoute(root, media);
  root.notFound(notFound);
  root.onError(errorHandler(lineLogger((line) => log.push(line))));
  const running = await listen(serve({ fetch: root.fetch, hostname: '127.0.0.1', port: 0 }) as Server);
  media.setOrigin(running.origin);
  return { ...running, api: `${running.origin}/api/v1` };
}

/** What the link-fetching tests fetch from: a plain HTTP server on 127.0.0.1 with one path per case. */
function startTarget() {
  let arrivedSlow = 0;
  let releaseSlow: () => void = () => undefined;
  let slowReleased = new Promise<void>((resolve) => {
    releaseSlow = resolve;
  });
  const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
    '/png': (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(PNG),
    // Mislabelled servers are common; only the bytes count.
    '/gif-as-octets': (_req, res) => res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(IMAGES.gif),
    '/text': (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end('not an image at all'),
    '/big': (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(pngOfSize(MAX_IMAGE_BYTES + 1)),
    '/big-chunked': (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      // Without a Content-Length the size shows only while reading; the reader must stop on its own.
      const chunk = pngOfSize(1024 * 1024);
      let written = 0;
      const more = () => {
        while (written < 8 && res.write(chunk)) written++;
        if (written < 8) res.once('drain', more);
        else res.end();
      };
      res.on('error', () => undefined);
      more();
    },
    '/missing': (_req, res) => res.writeHead(404).end('no'),
    '/hang': () => undefined,
    '/trickle': (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.write(PNG.subarray(0, 8)); // and never the rest
    },
    '/slow': (_req, res) => {
      arrivedSlow++;
      void slowReleased.then(() => res.writeHead(200, { 'content-type': 'image/png' }).end(PNG));
    },
    '/redirect': (_req, res) => res.writeHead(302, { location: '/png' }).end(),
    '/loop': (_req, res) => res.writeHead(302, { location: '/loop' }).end(),
    '/to-http': (_req, res) => res.writeHead(302, { location: 'http://example.com/logo.png' }).end(),
    '/meta': (_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ name: 'M', image: 'ipfs://x' })),
    '/meta-no-image': (_req, res) => res.writeHead(200).end(JSON.stringify({ name: 'M', image: '' })),
    '/meta-not-json': (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>'),
    '/meta-array': (_req, res) => res.writeHead(200).end('[{"image":"ipfs://x"}]'),
    '/meta-big': (_req, res) =>
      res.writeHead(200).end(JSON.stringify({ image: 'ipfs://x', padding: 'x'.repeat(300 * 1024) })),
  };
  const server = createServer((req, res) => {
    const route = routes[req.url ?? ''];
    if (route) route(req, res);
    else res.writeHead(404).end();
  }).listen(0, '127.0.0.1');
  return {
    server,
    get arrivedSlow() {
      return arrivedSlow;
    },
    releaseSlow: () => {
      releaseSlow();
      slowReleased = new Promise<void>((resolve) => {
        releaseSlow = resolve;
      });
    },
  };
}

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'media-test-'));
  dirs.push(dir);
  return dir;
}

let dataDir: string;
let media: MediaStore;
let app: Running & { api: string };
let target: ReturnType<typeof startTarget>;
let targetRunning: Running;
let t: string;

beforeAll(async () => {
  dataDir = tempDir();
  media = new MediaStore({ dataDir, allowLoopbackLinks: true });
  app = await startApp(media, false);
  target = startTarget();
  targetRunning = await listen(target.server);
  t = targetRunning.origin;
});
afterAll(async () => {
  await app?.close();
  await targetRunning?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function upload(body: BodyInit, contentType?: string, base = app.api) {
  return fetch(`${base}${MEDIA_UPLOAD_PATH}`, {
    method: 'POST',
    body,
    headers: contentType === undefined ? {} : { 'content-type': contentType },
    duplex: 'half',
  } as RequestInit);
}

async function errorOf(response: Response): Promise<{ status: number; code: string }> {
  const body = (await response.json()) as { error: { code: string } };
  return { status: response.status, code: body.error.code };
}

describe('POST /media/image', () => {
  it('stores each image type and serves it back byte for byte, under the same CID every time', async () => {
    for (const [type, bytes] of Object.entries(IMAGES) as [keyof typeof IMAGES, Uint8Array<ArrayBuffer>][]) {
      const first = await upload(bytes, MIME[type]);
      expect(first.status, type).toBe(200);
      const stored = (await first.json()) as { url: string; uri: string; cid: string; type: string; bytes: number };
      const cid = rawCid(bytes);
      expect(stored).toEqual({
        url: `${app.origin}/media/${cid}`,
        uri: `ipfs://${cid}`,
        cid,
        type,
        bytes: bytes.length,
      });
      const again = (await (await upload(bytes, MIME[type])).json()) as { cid: string };
      expect(again.cid).toBe(cid);

      const served = await fetch(stored.url);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe(MIME[type]);
      expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(served.headers.get('x-content-type-options')).toBe('nosniff');
      expect(new Uint8Array(await served.arrayBuffer())).toEqual(bytes);
      const etag = served.headers.get('etag') ?? '';
      expect((await fetch(stored.url, { headers: { 'if-none-match': etag } })).status).toBe(304);
      const head = await fetch(stored.url, { method: 'HEAD' });
      expect([head.status, head.headers.get('content-type'), await head.text()]).toEqual([200, MIME[type], '']);
    }
    // One file per distinct image, written whole: no temp file is left behind.
    const files = readdirSync(join(dataDir, 'media'));
    for (const [type, bytes] of Object.entries(IMAGES)) {
      expect(
        files.filter((name) => name.startsWith(rawCid(bytes))),
        type,
      ).toHaveLength(1);
    }
    expect(files.filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  // Issue 16: the upload needs an image type (a page elsewhere can send a body with none without asking first).
  it('refuses the bytes without a Content-Type, and takes image/jpg for a JPEG', async () => {
    expect(await errorOf(await upload(IMAGES.webp))).toEqual({ status: 415, code: 'UNSUPPORTED_IMAGE' });
    expect((await upload(IMAGES.jpeg, 'image/jpg')).status).toBe(200);
  });

  it('refuses a Content-Type that lies about the bytes with UNSUPPORTED_IMAGE', async () => {
    expect(await errorOf(await upload(PNG, 'image/gif'))).toEqual({ status: 415, code: 'UNSUPPORTED_IMAGE' });
    expect(await errorOf(await upload(IMAGES.jpeg, 'image/png'))).toEqual({ status: 415, code: 'UNSUPPORTED_IMAGE' });
    expect(await errorOf(await upload(PNG, 'image/svg+xml'))).toEqual({ status: 415, code: 'UNSUPPORTED_IMAGE' });
  });

  it('refuses anything that is not the image itself with UNSUPPORTED_IMAGE', async () => {
    const form = new FormData();
    form.append('file', new Blob([PNG], { type: 'image/png' }), 'logo.png');
    for (const [body, type] of [
      ['hello', 'text/plain'],
      [JSON.stringify({ image: Buffer.from(PNG).toString('base64') }), 'application/json'],
      [PNG, 'application/json'],
      [new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'), undefined],
      [new Uint8Array(), 'image/png'],
    ] as [BodyInit, string | undefined][]) {
      expect(await errorOf(await upload(body, type)), String(type)).toEqual({ status: 415, code: 'UNSUPPORTED_IMAGE' });
    }
    // fetch sets multipart/form-data with its boundary itself.
    const formAnswer = await fetch(`${app.api}${MEDIA_UPLOAD_PATH}`, { method: 'POST', body: form });
    expect(await errorOf(formAnswer)).toEqual({ status: 415, code: 'UNSUPPORTED_IMAGE' });
  });

  it('takes exactly 5 MB and refuses one byte more with IMAGE_TOO_LARGE, with or without a Content-Length', async () => {
    expect((await upload(pngOfSize(MAX_IMAGE_BYTES), 'image/png')).status).toBe(200);
    expect(await errorOf(await upload(pngOfSize(MAX_IMAGE_BYTES + 1), 'image/png'))).toEqual({
      status: 413,
      code: 'IMAGE_TOO_LARGE',
    });
    expect(await errorOf(await upload(streamedPng(MAX_IMAGE_BYTES + 1), 'image/png'))).toEqual({
      status: 413,
      code: 'IMAGE_TOO_LARGE',
    });
    expect(await errorOf(await upload(streamedPng(20 * 1024 * 1024), 'image/png'))).toEqual({
      status: 413,
      code: 'IMAGE_TOO_LARGE',
    });
    // A streamed body within the limit is stored like any other.
    expect((await upload(streamedPng(1024 * 1024), 'image/png')).status).toBe(200);
    // The server still answers after cutting those bodies short.
    expect((await upload(PNG, 'image/png')).status).toBe(200);
  });

  it('limits a client to 20 uploads a minute with RATE_LIMITED', async () => {
    const limited = await startApp(new MediaStore({ dataDir: tempDir() }), 20);
    try {
      for (let i = 0; i < 20; i++) expect((await upload(PNG, 'image/png', limited.api)).status).toBe(200);
      const refused = await upload(PNG, 'image/png', limited.api);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await errorOf(refused)).toEqual({ status: 429, code: 'RATE_LIMITED' });
    } finally {
      await limited.close();
    }
  });

  it('answers UPLOADS_BUSY at once while 4 uploads or fetches are in progress, and takes uploads again after', async () => {
    const slow = [1, 2, 3, 4].map(() => media.fetchImage(`${t}/slow`));
    while (target.arrivedSlow < 4) await new Promise((resolve) => setTimeout(resolve, 10));
    const busy = await upload(PNG, 'image/png');
    expect(busy.headers.get('retry-after')).toBe('2');
    expect(await errorOf(busy)).toEqual({ status: 429, code: 'UPLOADS_BUSY' });
    expect((await codeOf(media.fetchImage(`${t}/png`))).code).toBe('UPLOADS_BUSY');
    expect((await codeOf(media.putImage(PNG))).code).toBe('UPLOADS_BUSY');
    target.releaseSlow();
    for (const stored of await Promise.all(slow)) expect(stored.cid).toBe(rawCid(PNG));
    expect((await upload(PNG, 'image/png')).status).toBe(200);
  });

  it('is documented in the OpenAPI document as a raw image body', async () => {
    const api = new OpenAPIHono<AppEnv>();
    mediaRoute(api, media);
    const document = api.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 't', version: '1' } });
    const upload = document.paths?.[MEDIA_UPLOAD_PATH]?.post;
    const requestBody = upload?.requestBody as { content: object } | undefined;
    expect(Object.keys(requestBody?.content ?? {})).toEqual(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
    // Its own statuses, and those of any route (a bad x-api-key, another site's page, a server-side failure).
    expect(Object.keys(upload?.responses ?? {})).toEqual(['200', '401', '403', '413', '415', '429', '500', '503']);
    expect((await validate(structuredClone(document) as never)).valid).toBe(true);
  });
});

describe('GET /media/:cid', () => {
  it('answers NOT_FOUND for an unknown CID and for anything that is not a CID', async () => {
    for (const path of [
      rawCid(new TextEncoder().encode('never stored')),
      'not-a-cid',
      '..%2F..%2F..%2Fetc%2Fpasswd',
      '..%2Fapp.sqlite',
      `${rawCid(PNG)}.png`,
      rawCid(PNG).toUpperCase(),
    ]) {
      expect(await errorOf(await fetch(`${app.origin}/media/${path}`)), path).toEqual({
        status: 404,
        code: 'NOT_FOUND',
      });
    }
  });
});

describe('MediaStore.fetchImage', () => {
  it('fetches a loopback link when allowed, by its bytes whatever the Content-Type says, following redirects', async () => {
    const png = await media.fetchImage(`${t}/png`);
    expect(png).toMatchObject({ cid: rawCid(PNG), uri: `ipfs://${rawCid(PNG)}`, type: 'png', bytes: PNG.length });
    expect(new Uint8Array(await (await fetch(png.url)).arrayBuffer())).toEqual(PNG);
    expect((await media.fetchImage(`${t}/gif-as-octets`)).type).toBe('gif');
    expect((await media.fetchImage(`${t}/redirect`)).cid).toBe(rawCid(PNG));
    expect((await media.fetchImage(`http://localhost:${new URL(t).port}/png`)).cid).toBe(rawCid(PNG));
  });

  it('names what went wrong with the link', async () => {
    // A port that was free a moment ago: nothing listens there.
    const probe = createServer().listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const closedPort = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const cases: [string, ErrorCode][] = [
      [`${t}/big`, 'IMAGE_TOO_LARGE'],
      [`${t}/big-chunked`, 'IMAGE_TOO_LARGE'],
      [`${t}/text`, 'UNSUPPORTED_IMAGE'],
      [`${t}/missing`, 'INVALID_IMAGE'],
      [`${t}/loop`, 'INVALID_IMAGE'],
      [`${t}/to-http`, 'INVALID_IMAGE'],
      [`http://127.0.0.1:${closedPort}/logo.png`, 'INVALID_IMAGE'],
      ['http://example.com/logo.png', 'INVALID_IMAGE'],
      ['https://192.168.1.1/logo.png', 'INVALID_IMAGE'],
      ['https://user:pass@example.com/logo.png', 'INVALID_IMAGE'],
      ['ftp://example.com/logo.png', 'INVALID_IMAGE'],
      ['data:image/png;base64,iVBORw0KGgo=', 'INVALID_IMAGE'],
      ['logo.png', 'INVALID_IMAGE'],
      ['', 'INVALID_IMAGE'],
      [`ipfs://${rawCid(new TextEncoder().encode('elsewhere'))}`, 'INVALID_IMAGE'],
      ['ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi/logo.png', 'INVALID_IMAGE'],
      [`${app.origin}/media/${rawCid(new TextEncoder().encode('unknown'))}`, 'INVALID_IMAGE'],
    ];
    for (const [link, code] of cases) {
      expect(await codeOf(media.fetchImage(link)), link).toMatchObject({ code, field: 'image' });
    }
    expect((await codeOf(media.fetchImage(42))).code).toBe('INVALID_IMAGE');
  });

  it('gives up on a link that does not answer in full within the timeout', async () => {
    const quick = new MediaStore({ dataDir: tempDir(), allowLoopbackLinks: true, fetchTimeoutMs: 300 });
    quick.setOrigin(app.origin);
    for (const path of ['/hang', '/trickle']) {
      const started = Date.now();
      const result = await codeOf(quick.fetchImage(`${t}${path}`));
      expect(result, path).toMatchObject({ code: 'INVALID_IMAGE', field: 'image' });
      expect(Date.now() - started).toBeLessThan(5_000);
    }
  });

  it('refuses loopback links unless allowed, but reads its own /media and ipfs:// links from the store', async () => {
    await media.putImage(IMAGES.gif);
    // Nothing listens at this origin: an answer can only come from the store.
    const strict = new MediaStore({ dataDir, origin: 'http://127.0.0.1:1' });
    for (const link of [`${t}/png`, `http://localhost:${new URL(t).port}/png`, 'https://127.0.0.1/logo.png']) {
      expect(await codeOf(strict.fetchImage(link)), link).toMatchObject({ code: 'INVALID_IMAGE' });
    }
    const cid = rawCid(IMAGES.gif);
    expect(await strict.fetchImage(`http://127.0.0.1:1/media/${cid}`)).toEqual({
      cid,
      uri: `ipfs://${cid}`,
      url: `http://127.0.0.1:1/media/${cid}`,
      type: 'gif',
      bytes: IMAGES.gif.length,
    });
    expect((await strict.fetchImage(`ipfs://${cid}`)).type).toBe('gif');
  });

  it('answers STORAGE_UNAVAILABLE when the media folder cannot be written', async () => {
    const broken = tempDir();
    writeFileSync(join(broken, 'media'), 'a file where the folder should be');
    const store = new MediaStore({ dataDir: broken, origin: app.origin });
    expect((await codeOf(store.putImage(PNG))).code).toBe('STORAGE_UNAVAILABLE');
  });

  it('clears temp files an interrupted write left behind, which were never served', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'media'));
    const stale = join(dir, 'media', `${rawCid(PNG)}.0123456789ab.tmp`);
    writeFileSync(stale, PNG.subarray(0, 10));
    const store = new MediaStore({ dataDir: dir, origin: app.origin });
    expect(await store.get(rawCid(PNG))).toBeNull();
    await store.putImage(PNG, 'image/png');
    expect(existsSync(stale)).toBe(false);
    expect(readdirSync(join(dir, 'media')).sort()).toEqual([`${rawCid(PNG)}.png`, 'others']);
    expect((await store.get(rawCid(PNG)))?.bytes).toEqual(PNG);
  });
});

describe('token metadata', () => {
  const details = {
    description: 'To the moon\nand back 🚀',
    website: 'https://moon.example',
    x: '@moon',
    telegram: 'moon_chat',
  };

  it('is stored as canonical JSON under its CID and read back through its ipfs:// URI or URL', async () => {
    const logo = await media.putImage(PNG, 'image/png');
    const stored = await media.putMetadata({ name: 'Moon Token', symbol: 'MOON', image: logo.uri, ...details });
    expect(stored.metadata).toEqual({
      name: 'Moon Token',
      symbol: 'MOON',
      image: logo.uri,
      description: 'To the moon\nand back 🚀',
      website: 'https://moon.example',
      x: 'https://x.com/moon',
      telegram: 'https://t.me/moon_chat',
    });
    expect(stored.type).toBe('json');
    expect(stored.uri).toBe(`ipfs://${stored.cid}`);
    // Same details in another order, with a blank detail, give the same document.
    const reordered = await media.putMetadata({
      ...details,
      description: '  To the moon\nand back 🚀 ',
      website: 'https://moon.example',
      image: logo.uri,
      symbol: 'MOON',
      name: 'Moon Token',
      x: 'moon',
    });
    expect(reordered.cid).toBe(stored.cid);

    const served = await fetch(stored.url);
    expect(served.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const text = await served.text();
    expect(text).toBe(canonicalJson(stored.metadata));
    expect(rawCid(new TextEncoder().encode(text))).toBe(stored.cid);

    for (const uri of [stored.uri, stored.url]) {
      const resolved = await media.resolveMetadataURI(uri);
      expect(resolved).toEqual({ uri, metadata: stored.metadata, image: logo.uri });
    }
  });

  it('refuses details that cannot be stored as sent with INVALID_METADATA naming the field', async () => {
    const base = { name: 'Moon', symbol: 'MOON', image: `ipfs://${rawCid(PNG)}` };
    const cases: [Record<string, unknown>, string][] = [
      [{ website: 'http://moon.example' }, 'website'],
      [{ website: 'moon.example' }, 'website'],
      [{ website: 'javascript:alert(1)' }, 'website'],
      [{ website: 'https://localhost/' }, 'website'],
      [{ website: 'https://user:pw@moon.example/' }, 'website'],
      [{ website: 'https://moon.example/a b' }, 'website'],
      [{ website: `https://moon.example/${'a'.repeat(300)}` }, 'website'],
      [{ x: 'https://evil.example/moon' }, 'x'],
      [{ x: 'https://x.com/' }, 'x'],
      [{ x: 'moon-token' }, 'x'],
      [{ x: '@a_handle_longer_than_15' }, 'x'],
      [{ telegram: 'https://evil.example/moon' }, 'telegram'],
      [{ telegram: 'abc' }, 'telegram'],
      [{ description: 'x'.repeat(1001) }, 'description'],
      [{ description: 'bell \u0007' }, 'description'],
      [{ description: 42 }, 'description'],
      [{ name: '' }, 'name'],
      [{ name: 'n'.repeat(65) }, 'name'],
      [{ symbol: 's'.repeat(33) }, 'symbol'],
      [{ image: 'http://example.com/logo.png' }, 'image'],
      [{ image: 'ipfs://not a cid' }, 'image'],
      [{ logo: 'x' }, 'logo'],
    ];
    for (const [change, field] of cases) {
      expect(await codeOf(media.putMetadata({ ...base, ...change } as never)), JSON.stringify(change)).toMatchObject({
        code: 'INVALID_METADATA',
        field,
      });
    }
    expect((await codeOf(media.putMetadata({ ...base, image: '' }))).code).toBe('MISSING_IMAGE');
  });

  it('accepts the usual forms of each detail', () => {
    expect(
      checkTokenDetails({
        description: '🚀'.repeat(1000),
        website: 'https://moon.example/path?q=1',
        x: 'https://twitter.com/moon/status/1',
        telegram: 'https://t.me/+AbCdEf123',
      }),
    ).toMatchObject({ x: 'https://twitter.com/moon/status/1', telegram: 'https://t.me/+AbCdEf123' });
    expect(checkTokenDetails({ description: null, website: '', x: undefined, telegram: '   ' })).toEqual({});
    expect(checkTokenDetails({ x: 'moon_2024', telegram: '@Moon_Chat' })).toEqual({
      x: 'https://x.com/moon_2024',
      telegram: 'https://t.me/Moon_Chat',
    });
  });
});

describe('MediaStore.resolveMetadataURI', () => {
  it('reads metadata from a link and checks it has an image', async () => {
    expect(await media.resolveMetadataURI(`${t}/meta`)).toEqual({
      uri: `${t}/meta`,
      metadata: { name: 'M', image: 'ipfs://x' },
      image: 'ipfs://x',
    });
    const cases: [unknown, ErrorCode][] = [
      [`${t}/meta-no-image`, 'MISSING_IMAGE'],
      [`${t}/meta-not-json`, 'INVALID_METADATA'],
      [`${t}/meta-array`, 'INVALID_METADATA'],
      [`${t}/meta-big`, 'INVALID_METADATA'],
      [`ipfs://${rawCid(PNG)}`, 'INVALID_METADATA'], // stored here, but an image
      [`${t}/missing`, 'INVALID_METADATA_URI'],
      [`ipfs://${rawCid(new TextEncoder().encode('not here'))}`, 'INVALID_METADATA_URI'],
      ['ipfs://QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG', 'INVALID_METADATA_URI'],
      ['ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi/metadata.json', 'INVALID_METADATA_URI'],
      ['http://example.com/metadata.json', 'INVALID_METADATA_URI'],
      ['ftp://example.com/metadata.json', 'INVALID_METADATA_URI'],
      ['https://10.0.0.1/metadata.json', 'INVALID_METADATA_URI'],
      ['metadata.json', 'INVALID_METADATA_URI'],
      ['', 'INVALID_METADATA_URI'],
      [42, 'INVALID_METADATA_URI'],
    ];
    for (const [uri, code] of cases) {
      expect(await codeOf(media.resolveMetadataURI(uri)), String(uri)).toMatchObject({ code, field: 'metadataURI' });
    }
  });

  it('refuses loopback metadata links unless allowed', async () => {
    const strict = new MediaStore({ dataDir, origin: 'http://127.0.0.1:1' });
    expect((await codeOf(strict.resolveMetadataURI(`${t}/meta`))).code).toBe('INVALID_METADATA_URI');
  });
});

it('logged no INTERNAL error along the way', () => {
  expect(log.filter((line) => line.startsWith('INTERNAL'))).toEqual([]);
});
