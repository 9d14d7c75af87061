import { once } from 'node:events';
import { readdirSync, utimesSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testAccounts } from '../src-main/chain/devnet/testAccounts';
import { rawCid } from '../src-main/core/media/cid';
import type { ResolveHost } from '../src-main/services/media/linkFetch';
import { type ServiceDrivers, serviceDrivers } from './support/serviceDrivers';
import { startTestService, type TestService } from './support/startTestService';

const PNG = new Uint8Array(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    'base64',
  ),
);
const KB = 1024;

/** A PNG-headed file of `size` bytes, different for each `seed`. */
function png(size: number, seed: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  bytes.set(PNG);
  bytes[size - 1] = seed;
  return bytes;
}

/**
 * A loopback HTTP server that counts connections and the most open at once; without a handler, a tarpit that takes
 * each connection and never says a word, not even to a TLS handshake.
 */
async function server(handler?: (req: IncomingMessage, res: ServerResponse) => void) {
  let connections = 0;
  let open = 0;
  let mostOpen = 0;
  const sockets = new Set<Socket>();
  const http: Server = handler ? createServer(handler) : createTcpServer((socket) => sockets.add(socket));
  http.on('connection', (socket: Socket) => {
    connections++;
    open++;
    mostOpen = Math.max(mostOpen, open);
    socket.on('close', () => open--);
  });
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  return {
    port: (http.address() as AddressInfo).port,
    get connections() {
      return connections;
    },
    get mostOpen() {
      return mostOpen;
    },
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        if ('closeAllConnections' in http) (http as ReturnType<typeof createServer>).closeAllConnections();
        for (const socket of sockets) socket.destroy();
      }),
  };
}

/** DNS where every name under `.test` is on this machine, as a hostile launcher's own DNS could answer. */
const everyNameHere: ResolveHost = async (hostname) => {
  if (!hostname.endsWith('.test')) throw Object.assign(new Error(`${hostname} not found`), { code: 'ENOTFOUND' });
  return [{ address: '127.0.0.1', family: 4 }];
};

const creator = testAccounts()[3]?.address as Address;

function upload(service: TestService, bytes: Uint8Array<ArrayBuffer>) {
  return fetch(`${service.url}/media/image`, { method: 'POST', body: bytes, headers: { 'content-type': 'image/png' } });
}

async function launchThroughApi(service: TestService, s: ServiceDrivers, image: string, symbol: string) {
  const built = await s.api.post('/build/launch', {
    wallet: creator,
    name: symbol,
    symbol,
    marketCapPair: '10',
    image,
  });
  expect(built.status, JSON.stringify(built.body)).toBe(200);
  const receipt = await s.api.signAndSend(3, built.body.tx);
  await service.indexer.waitFor(receipt.blockNumber);
  return built.body.token as Address;
}

async function launchImage(s: ServiceDrivers, token: Address): Promise<string | null> {
  const { body } = await s.api.get('/launches?limit=100');
  return body.launches.find((launch: { token: Address }) => launch.token === token)?.image ?? null;
}

describe('a tarpit of launches during the user own upload', () => {
  let service: TestService;
  let s: ServiceDrivers;
  let tarpit: Awaited<ReturnType<typeof server>>;
  let logos: Awaited<ReturnType<typeof server>>;
  let victim: Awaited<ReturnType<typeof server>>;

  beforeAll(async () => {
    // Metadata hosts that take the connection and never answer (not even the TLS handshake).
    tarpit = await server();
    logos = await server((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(PNG));
    victim = await server((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(PNG));
    service = await startTestService(undefined, {
      thirdPartyFetches: true,
      media: {
        // The tarpit and the logo host may be reached on this machine; no other port may.
        allowLoopbackLinks: { ports: [tarpit.port, logos.port] },
        resolveHost: everyNameHere,
        // Longer than the test: the tarpit holds what it takes for the whole of it.
        backgroundFetchTimeoutMs: 120_000,
      },
    });
    s = await serviceDrivers(service);
  });
  afterAll(async () => {
    await tarpit?.close();
    await logos?.close();
    await victim?.close();
    await service?.dispose();
  });

  it('leaves the upload its own budget: every upload and the user link fetch succeed while the tarpit holds', async () => {
    for (let i = 0; i < 10; i++) {
      const launched = await s.launcher.launch({
        creator: 2,
        saltSeed: `tarpit-${i}`,
        symbol: `TAR${i}`,
        metadataURI: `https://launch${i}.tarpit.test:${tarpit.port}/metadata.json`,
      });
      expect(launched.result).toBe('ok');
    }
    await service.indexer.waitFor(await s.api.client.getBlockNumber({ cacheTime: 0 }));
    await vi.waitFor(() => expect(tarpit.connections).toBeGreaterThanOrEqual(2), { timeout: 10_000, interval: 20 });

    const answers = await Promise.all([1, 2, 3, 4].map((seed) => upload(service, png(2 * KB, seed))));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    for (let seed = 5; seed < 10; seed++) expect((await upload(service, png(KB, seed))).status).toBe(200);
    // The user's own launch with a logo link is a fetch of the user's budget too.
    const token = await launchThroughApi(service, s, `http://127.0.0.1:${logos.port}/logo.png`, 'MINE');
    expect(token).toMatch(/^0x/);

    // The tarpit never held more than the background budget, whatever the number of launches.
    expect(tarpit.mostOpen).toBeLessThanOrEqual(2);
    expect(tarpit.connections).toBe(2);
  });

  it('refuses a launch whose logo or metadata link resolves to this machine, and nothing reaches it', async () => {
    const image = await s.api.post('/build/launch', {
      wallet: creator,
      name: 'Probe',
      symbol: 'PRB',
      marketCapPair: '10',
      image: `https://logo.attacker.test:${victim.port}/logo.png`,
    });
    expect(image.status).toBe(400);
    expect(image.body.error).toMatchObject({ code: 'INVALID_IMAGE', field: 'image' });
    const metadata = await s.api.post('/build/launch', {
      wallet: creator,
      name: 'Probe',
      symbol: 'PRB',
      marketCapPair: '10',
      metadataURI: `https://metadata.attacker.test:${victim.port}/metadata.json`,
    });
    expect(metadata.status).toBe(400);
    expect(metadata.body.error).toMatchObject({ code: 'INVALID_METADATA_URI', field: 'metadataURI' });
    expect(victim.connections).toBe(0);
  });
});

describe('logos of other people launches', () => {
  it('are not fetched at all while third-party fetches are off, and are fetched, checked and served here once on', async () => {
    const logo = png(3 * KB, 42);
    const host = await server((req, res) => {
      if (req.url === '/metadata.json') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ name: 'Far', symbol: 'FAR', image: `http://127.0.0.1:${port()}/logo.png` }));
      } else res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(logo);
    });
    const port = () => host.port;
    const media = { allowLoopbackLinks: { ports: [host.port] }, resolveHost: everyNameHere };
    let service = await startTestService(undefined, { thirdPartyFetches: false, media });
    const dataDir = service.dataDir;
    try {
      let s = await serviceDrivers(service);
      const far = await s.launcher.launch({
        creator: 2,
        saltSeed: 'far',
        symbol: 'FAR',
        metadataURI: `http://127.0.0.1:${host.port}/metadata.json`,
      });
      expect(far.result).toBe('ok');
      // The user's own launch: its logo and metadata are stored here, so it needs no fetch and shows its logo.
      const uploaded = await upload(service, png(KB, 7));
      const own = await launchThroughApi(service, s, ((await uploaded.json()) as { uri: string }).uri, 'OWN');
      await vi.waitFor(async () => expect(await launchImage(s, own)).toMatch(/\/media\/bafkrei/), { timeout: 10_000 });
      const db = new Database(join(dataDir, 'app.sqlite'), { readonly: true });
      try {
        const state = () =>
          (db.prepare('SELECT state FROM launch_images WHERE token = ?').pluck().get(far.token) as string) ?? null;
        await vi.waitFor(() => expect(state()).toBe('held'), { timeout: 10_000 });
      } finally {
        db.close();
      }
      expect(await launchImage(s, far.token as Address)).toBeNull();
      expect(host.connections).toBe(0);

      // The next start with fetches on looks at what was held: the logo is fetched, sniffed and served from /media.
      await service.close();
      service = await startTestService(dataDir, { thirdPartyFetches: true, media });
      s = await serviceDrivers(service);
      const origin = service.origin;
      await vi.waitFor(
        async () => expect(await launchImage(s, far.token as Address)).toBe(`${origin}/media/${rawCid(logo)}`),
        { timeout: 15_000 },
      );
      const served = await fetch(`${origin}/media/${rawCid(logo)}`);
      expect(served.headers.get('content-type')).toBe('image/png');
      expect(new Uint8Array(await served.arrayBuffer())).toEqual(logo);
      expect(host.connections).toBeGreaterThan(0);
    } finally {
      await host.close();
      await service.dispose();
    }
  });
});

describe("the person's own media space on a running service", () => {
  it('keeps their uploads and launch files however old, and refuses one more with a fix once their share is full', async () => {
    // 24 KB: 12 for the person's own files, 12 for other people's logos.
    const service = await startTestService(undefined, { media: { maxTotalBytes: 24 * KB } });
    try {
      const s = await serviceDrivers(service);
      const logo = (await (await upload(service, png(2 * KB, 1))).json()) as { cid: string; uri: string };
      const token = await launchThroughApi(service, s, logo.uri, 'KEEP');
      await vi.waitFor(async () => expect(await launchImage(s, token)).toContain(logo.cid), { timeout: 10_000 });
      const folder = join(service.dataDir, 'media');
      const unused: string[] = [];
      for (let seed = 10; seed < 13; seed++) {
        unused.push(((await (await upload(service, png(3 * KB, seed))).json()) as { cid: string }).cid);
      }
      // A month old and named by nothing: still the person's.
      const longAgo = new Date(Date.now() - 30 * 86_400_000);
      for (const name of readdirSync(folder)) utimesSync(join(folder, name), longAgo, longAgo);
      const refused = await upload(service, png(3 * KB, 20));
      expect(refused.status).toBe(503);
      const body = (await refused.json()) as { error: { code: string; message: string; fix: string } };
      expect(body.error.code).toBe('STORAGE_UNAVAILABLE');
      expect(body.error.fix).toContain(folder);
      for (const cid of [logo.cid, ...unused]) expect((await fetch(`${service.origin}/media/${cid}`)).status).toBe(200);
    } finally {
      await service.dispose();
    }
  });
});
