import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rawCid } from '../src-main/core/media/cid';
import { type ServiceDrivers, serviceDrivers } from './support/serviceDrivers';
import { startTestService, type TestService } from './support/startTestService';

const KB = 1024;
const MB = 1024 * KB;
const PNG = new Uint8Array(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    'base64',
  ),
);

/** A PNG-headed file of `size` bytes, different for each `seed`. */
function png(size: number, seed: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  bytes.set(PNG);
  bytes[size - 1] = seed;
  return bytes;
}

/** 300 KB logos: a 2 MB cap keeps 1 MB for other people's logos, so three fit and a fourth needs room. */
const LOGO_BYTES = 300 * KB;
const logoOf = (n: number) => png(LOGO_BYTES, n);

/**
 * Other people's launch hosts, on this machine: `/meta/<n>.json` names `/logo/<n>.png`, a large logo of its own. It
 * counts every request by path, so a test sees each fetch the service made.
 */
async function launcherHost() {
  const asked = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '';
    asked.set(path, (asked.get(path) ?? 0) + 1);
    const meta = /^\/meta\/(\d+)\.json$/.exec(path);
    const logo = /^\/logo\/(\d+)\.png$/.exec(path);
    if (meta) {
      const n = Number(meta[1]);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ name: `Far ${n}`, symbol: `FAR${n}`, image: `http://127.0.0.1:${port()}/logo/${n}.png` }),
      );
    } else if (logo) res.writeHead(200, { 'content-type': 'image/png' }).end(logoOf(Number(logo[1])));
    else res.writeHead(404).end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = () => (server.address() as AddressInfo).port;
  return {
    port: port(),
    asked,
    /** Requests made so far, all paths together. */
    get total() {
      return [...asked.values()].reduce((sum, count) => sum + count, 0);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

type Host = Awaited<ReturnType<typeof launcherHost>>;

/** Launches straight on the LaunchFactory (not through the service's build), with metadata on the launcher's host. */
async function launchOnFactory(s: ServiceDrivers, host: Host, n: number): Promise<Address> {
  const launched = await s.launcher.launch({
    creator: 2,
    saltSeed: `far-${n}`,
    name: `Far ${n}`,
    symbol: `FAR${n}`,
    metadataURI: `http://127.0.0.1:${host.port}/meta/${n}.json`,
  });
  expect(launched.result).toBe('ok');
  return launched.token as Address;
}

async function launchImage(s: ServiceDrivers, token: Address): Promise<string | null> {
  const { body } = await s.api.get('/launches?limit=100');
  return body.launches.find((launch: { token: Address }) => launch.token === token)?.image ?? null;
}

/** Waits until the indexer fetched launch `n`'s logo and shows it from this server. */
async function logoShown(service: TestService, s: ServiceDrivers, token: Address, n: number): Promise<void> {
  const expected = `${service.origin}/media/${rawCid(logoOf(n))}`;
  await vi.waitFor(async () => expect(await launchImage(s, token)).toBe(expected), { timeout: 20_000, interval: 50 });
}

function cachedCids(service: TestService): string[] {
  return readdirSync(join(service.dataDir, 'media', 'others')).map((name) => name.split('.')[0] ?? '');
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("other people's logos, filled from the factory", () => {
  let service: TestService;
  let s: ServiceDrivers;
  let host: Host;

  beforeAll(async () => {
    host = await launcherHost();
    service = await startTestService(undefined, {
      thirdPartyFetches: true,
      media: { maxTotalBytes: 2 * MB, allowLoopbackLinks: { ports: [host.port] } },
    });
    s = await serviceDrivers(service);
  });
  afterAll(async () => {
    await service?.dispose();
    await host?.close();
  });

  it("stay a cache within their share, least recently used out first, and never take the person's own space", async () => {
    const cid = (n: number) => rawCid(logoOf(n));
    const tokens = new Map<number, Address>();
    // Three fill the cache's megabyte; each is shown before the next comes, so their order is known.
    for (const n of [1, 2, 3]) {
      tokens.set(n, await launchOnFactory(s, host, n));
      await logoShown(service, s, tokens.get(n) as Address, n);
      await pause(20);
    }
    expect(cachedCids(service).sort()).toEqual([cid(1), cid(2), cid(3)].sort());
    // The first is shown again (a page loads it): used more recently than the second and third.
    const served = await fetch(`${service.origin}/media/${cid(1)}`);
    expect(served.status).toBe(200);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(logoOf(1));
    await pause(20);
    tokens.set(4, await launchOnFactory(s, host, 4));
    await logoShown(service, s, tokens.get(4) as Address, 4);
    expect(cachedCids(service).sort()).toEqual([cid(1), cid(3), cid(4)].sort());
    await pause(20);

    // Then a burst, as an attacker would: six more large logos at once.
    const burst = [5, 6, 7, 8, 9, 10];
    for (const n of burst) tokens.set(n, await launchOnFactory(s, host, n));
    for (const n of burst) await logoShown(service, s, tokens.get(n) as Address, n);
    await service.images.settled();
    const left = cachedCids(service);
    const { shares, used } = await service.media.space();
    expect(shares).toEqual({ own: 1 * MB, others: 1 * MB });
    expect(used.others).toBeLessThanOrEqual(shares.others);
    expect(left).toHaveLength(3);
    // Everything used before the burst is gone; what is left came in it.
    for (const n of [1, 2, 3, 4]) expect(left).not.toContain(cid(n));
    for (const each of left) expect(burst.map(cid)).toContain(each);

    // The person's own 200 KB upload is stored, in their own space.
    const upload = await fetch(`${service.url}/media/image`, {
      method: 'POST',
      body: png(200 * KB, 200),
      headers: { 'content-type': 'image/png' },
    });
    expect(upload.status).toBe(200);
    const own = (await upload.json()) as { cid: string };
    expect(readdirSync(join(service.dataDir, 'media'))).toContain(`${own.cid}.png`);
    expect((await service.media.space()).used.own).toBe(200 * KB);

    // A pruned logo asked for again is fetched again from its launcher's host, once, and served.
    const before = host.asked.get('/logo/2.png') ?? 0;
    const again = await fetch(`${service.origin}/media/${cid(2)}`);
    expect(again.status).toBe(200);
    expect(new Uint8Array(await again.arrayBuffer())).toEqual(logoOf(2));
    expect(host.asked.get('/logo/2.png')).toBe(before + 1);
    expect(cachedCids(service)).toContain(cid(2));
    expect((await service.media.space()).used.others).toBeLessThanOrEqual(1 * MB);
    // A CID that is nobody's logo is not fetched from anywhere.
    const total = host.total;
    expect((await fetch(`${service.origin}/media/${rawCid(png(KB, 99))}`)).status).toBe(404);
    expect(host.total).toBe(total);
  });
});

describe("fetching other people's logos is the person's choice", () => {
  const TOKEN = 'test-app-token-media-consent-0123';
  let service: TestService;
  let s: ServiceDrivers;
  let host: Host;
  let settingsFile: string;

  beforeAll(async () => {
    host = await launcherHost();
    settingsFile = join(mkdtempSync(join(tmpdir(), 'companion-consent-')), 'app-settings.json');
    // Nothing chooses for the person: no flag, no variable, no saved setting.
    service = await startTestService(undefined, {
      appToken: TOKEN,
      settingsFile,
      media: { allowLoopbackLinks: { ports: [host.port] } },
    });
    s = await serviceDrivers(service);
  });
  afterAll(async () => {
    await service?.dispose();
    await host?.close();
    rmSync(settingsFile, { force: true });
  });

  async function call<T>(operation: string, input: unknown = {}): Promise<T> {
    const response = await fetch(`${service.origin}/app/${operation}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify(input),
    });
    const body = (await response.json()) as { result?: T; error?: unknown };
    if (response.status !== 200) throw new Error(`${operation}: ${JSON.stringify(body.error)}`);
    return body.result as T;
  }

  function imageStates(): Record<string, string> {
    const db = new Database(join(service.dataDir, 'app.sqlite'), { readonly: true });
    try {
      const rows = db.prepare('SELECT token, state FROM launch_images').all() as { token: string; state: string }[];
      return Object.fromEntries(rows.map((row) => [row.token, row.state]));
    } finally {
      db.close();
    }
  }

  it('makes no outbound fetch until the person turns it on, then fetches each once, and none again once off', async () => {
    expect(await call('app.info')).toMatchObject({ thirdPartyFetches: false, thirdPartyFetchesChosen: false });
    const held = [await launchOnFactory(s, host, 21), await launchOnFactory(s, host, 22)];
    await vi.waitFor(() => expect(held.map((token) => imageStates()[token])).toEqual(['held', 'held']), {
      timeout: 15_000,
    });
    for (const token of held) expect(await launchImage(s, token)).toBeNull();
    // Asking this server for their logos reaches nobody either.
    expect((await fetch(`${service.origin}/media/${rawCid(logoOf(21))}`)).status).toBe(404);
    expect(host.total).toBe(0);

    // The person chooses to see them: applied at once, and kept for the next start.
    expect(await call('settings.thirdPartyFetches', { on: true })).toEqual({
      thirdPartyFetches: true,
      keptIn: settingsFile,
    });
    expect(JSON.parse(readFileSync(settingsFile, 'utf8'))).toEqual({ thirdPartyFetches: true });
    expect(await call('app.info')).toMatchObject({ thirdPartyFetches: true, thirdPartyFetchesChosen: true });
    await logoShown(service, s, held[0] as Address, 21);
    await logoShown(service, s, held[1] as Address, 22);
    await service.images.settled();
    expect(Object.fromEntries(host.asked)).toEqual({
      '/meta/21.json': 1,
      '/logo/21.png': 1,
      '/meta/22.json': 1,
      '/logo/22.png': 1,
    });

    // Turned off again: a new launch is held, and nothing more is asked of anyone.
    await call('settings.thirdPartyFetches', { on: false });
    expect(JSON.parse(readFileSync(settingsFile, 'utf8'))).toEqual({ thirdPartyFetches: false });
    const later = await launchOnFactory(s, host, 23);
    await vi.waitFor(() => expect(imageStates()[later]).toBe('held'), { timeout: 15_000 });
    expect(host.total).toBe(4);
    // The Settings form, saved without the switch's value, keeps the choice rather than forgetting it.
    const form = { network: 'devnet', rpcUrl: null, dataDir: null, rateLimits: true, ledgerTemplate: 'live' };
    await call('settings.save', form);
    expect(JSON.parse(readFileSync(settingsFile, 'utf8'))).toEqual({ ...form, thirdPartyFetches: false });
  });
});
