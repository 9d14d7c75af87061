import { once } from 'node:events';
import { mkdtempSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createTcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../src-main/core/errors';
import { rawCid } from '../src-main/core/media/cid';
import type { ResolveHost } from '../src-main/services/media/linkFetch';
import { MediaStore, type MediaStoreOptions } from '../src-main/services/mediaStore';

const PNG = new Uint8Array(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    'base64',
  ),
);

/** A PNG-headed file of `size` bytes, different for each `seed`. */
function png(size: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(size);
  bytes.set(PNG);
  bytes[size - 1] = seed;
  return bytes;
}

/** A loopback HTTP server that counts every TCP connection made to it, whatever comes over it. */
async function countingServer(handler: Parameters<typeof createServer>[1]) {
  let connections = 0;
  const server: Server = createServer(handler);
  server.on('connection', () => connections++);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    get connections() {
      return connections;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The attacker's DNS: each name answers what the table says; anything else is not found. */
function resolver(table: Record<string, string[]>): ResolveHost {
  return async (hostname) => {
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`${hostname} not found`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

async function failure(promise: Promise<unknown>): Promise<{ code: string; message: string; field?: string }> {
  try {
    await promise;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { code: error.code, message: error.message, ...(error.field ? { field: error.field } : {}) };
  }
  throw new Error('expected a failure');
}

const dirs: string[] = [];
function store(options: Omit<MediaStoreOptions, 'dataDir'> = {}): MediaStore {
  const dataDir = mkdtempSync(join(tmpdir(), 'media-links-'));
  dirs.push(dataDir);
  return new MediaStore({ dataDir, origin: 'http://127.0.0.1:1', ...options });
}

let victim: Awaited<ReturnType<typeof countingServer>>;
beforeAll(async () => {
  // What the attacker wants reached: a service on this machine, answering anything asked.
  victim = await countingServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
  });
});
afterAll(async () => {
  await victim.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('a hostile link whose name resolves to this machine or its network', () => {
  it('is refused at the connect, for images and metadata, and nothing reaches the server it points at', async () => {
    const dns = resolver({
      'logo.attacker.test': ['127.0.0.1'],
      'mapped.attacker.test': ['::ffff:127.0.0.1'],
      'six.attacker.test': ['::1'],
      'mixed.attacker.test': ['93.184.216.34', '127.0.0.1'],
      'metadata.attacker.test': ['169.254.169.254'],
      'lan.attacker.test': ['192.168.1.10'],
      'cgnat.attacker.test': ['100.100.100.200'],
      'ula.attacker.test': ['fd00:ec2::254'],
    });
    const media = store({ resolveHost: dns });
    for (const host of [
      'logo.attacker.test',
      'mapped.attacker.test',
      'six.attacker.test',
      'mixed.attacker.test',
      'metadata.attacker.test',
      'lan.attacker.test',
      'cgnat.attacker.test',
      'ula.attacker.test',
    ]) {
      const link = `https://${host}:${victim.port}/logo.png`;
      expect(await failure(media.fetchImage(link)), link).toMatchObject({ code: 'INVALID_IMAGE', field: 'image' });
      expect(await failure(media.resolveMetadataURI(link)), link).toMatchObject({
        code: 'INVALID_METADATA_URI',
        field: 'metadataURI',
      });
    }
    // Addresses written in the link itself, in the forms a URL accepts for them.
    for (const link of [
      `https://127.0.0.1:${victim.port}/logo.png`,
      `https://2130706433:${victim.port}/logo.png`,
      `https://[::ffff:127.0.0.1]:${victim.port}/logo.png`,
      `https://[::1]:${victim.port}/logo.png`,
      `https://169.254.169.254/latest/meta-data/`,
      `https://localhost:${victim.port}/logo.png`,
    ]) {
      expect(await failure(media.fetchImage(link)), link).toMatchObject({ code: 'INVALID_IMAGE' });
    }
    expect(victim.connections).toBe(0);
  });

  it('gives the same answer whether a port is open or closed', async () => {
    const probe = createTcpServer().listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const closedPort = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const media = store({ resolveHost: resolver({ 'scan.attacker.test': ['127.0.0.1'] }) });
    const open = await failure(media.fetchImage(`https://scan.attacker.test:${victim.port}/`));
    const closed = await failure(media.fetchImage(`https://scan.attacker.test:${closedPort}/`));
    expect(closed).toEqual(open);
    expect(victim.connections).toBe(0);
  });
});

describe('where loopback links are allowed (the devnet), a link that cannot be fetched', () => {
  it('answers alike whether the port is closed, silent, resets, or speaks something other than HTTP', async () => {
    const probe = createTcpServer().listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const closedPort = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const silent = createTcpServer(() => undefined).listen(0, '127.0.0.1');
    const resets = createTcpServer((socket) => socket.resetAndDestroy()).listen(0, '127.0.0.1');
    const banner = createTcpServer((socket) => socket.end('SSH-2.0-OpenSSH_9.6\r\n')).listen(0, '127.0.0.1');
    await Promise.all([once(silent, 'listening'), once(resets, 'listening'), once(banner, 'listening')]);
    const port = (server: ReturnType<typeof createTcpServer>) => (server.address() as AddressInfo).port;
    try {
      const media = store({ allowLoopbackLinks: true, fetchTimeoutMs: 500 });
      const answers = [];
      for (const target of [closedPort, port(silent), port(resets), port(banner)]) {
        answers.push(await failure(media.fetchImage(`http://127.0.0.1:${target}/logo.png`)));
      }
      expect(answers[0]).toMatchObject({ code: 'INVALID_IMAGE', field: 'image' });
      for (const answer of answers) expect(answer).toEqual(answers[0]);
    } finally {
      for (const server of [silent, resets, banner]) server.close();
    }
  });
});

describe('redirects', () => {
  it('are checked hop by hop: a redirect from an allowed host to this machine is refused before connecting', async () => {
    let hops = 0;
    const allowed = await countingServer((req, res) => {
      hops++;
      const to: Record<string, string> = {
        '/fine': '/logo.png',
        '/to-loopback': `http://127.0.0.1:${victim.port}/logo.png`,
        '/to-localhost': `http://localhost:${victim.port}/logo.png`,
        '/to-name': `https://inside.attacker.test:${victim.port}/logo.png`,
        '/to-mapped': `https://[::ffff:7f00:1]:${victim.port}/logo.png`,
        '/to-metadata': 'https://metadata.attacker.test/latest/meta-data/',
      };
      const location = to[req.url ?? ''];
      if (location) res.writeHead(302, { location }).end();
      else res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    });
    try {
      const media = store({
        // Only the allowed host's port on this machine may be reached; the victim's may not.
        allowLoopbackLinks: { ports: [allowed.port] },
        resolveHost: resolver({
          'cdn.example.test': ['127.0.0.1'],
          'inside.attacker.test': ['127.0.0.1'],
          'metadata.attacker.test': ['169.254.169.254'],
        }),
      });
      const base = `http://127.0.0.1:${allowed.port}`;
      expect((await media.fetchImage(`${base}/fine`)).cid).toBe(rawCid(PNG));
      for (const path of ['/to-loopback', '/to-localhost', '/to-name', '/to-mapped', '/to-metadata']) {
        expect(await failure(media.fetchImage(`${base}${path}`)), path).toMatchObject({ code: 'INVALID_IMAGE' });
        expect(await failure(media.resolveMetadataURI(`${base}${path}`)), path).toMatchObject({
          code: 'INVALID_METADATA_URI',
        });
      }
      expect(hops).toBe(12);
      expect(victim.connections).toBe(0);
    } finally {
      await allowed.close();
    }
  });
});

describe('the media folder size cap', () => {
  const KB = 1024;

  it("keeps every upload and metadata document of the person's, and refuses one more only when their share is full", async () => {
    // 10 KB: 6 KB for the person, 4 KB for other people's logos.
    const media = store({ maxTotalBytes: 10 * KB, othersBytes: 4 * KB });
    const folder = join(dirs.at(-1) ?? '', 'media');
    const logo = await media.putImage(png(2 * KB, 1));
    const metadata = await media.putMetadata({ name: 'Kept', symbol: 'KEPT', image: logo.uri });
    const unused = await media.putImage(png(2 * KB, 2));
    // Days old and named by nothing: still theirs, still kept.
    const longAgo = new Date(Date.now() - 30 * 86_400_000);
    for (const cid of [logo.cid, metadata.cid, unused.cid]) {
      const name = readdirSync(folder).find((file) => file.startsWith(cid)) ?? '';
      utimesSync(join(folder, name), longAgo, longAgo);
    }
    const full = await failure(media.putImage(png(2 * KB, 3)));
    expect(full).toMatchObject({ code: 'STORAGE_UNAVAILABLE' });
    expect(full.message).toMatch(/space for your own media is full/);
    const present = readdirSync(folder).map((name) => name.split('.')[0]);
    expect(present).toEqual(expect.arrayContaining([logo.cid, metadata.cid, unused.cid]));
    expect((await media.get(logo.cid))?.bytes).toEqual(png(2 * KB, 1));
    const { used, shares } = await media.space();
    expect(shares).toEqual({ own: 6 * KB, others: 4 * KB });
    expect(used.others).toBe(0);
  });
});
