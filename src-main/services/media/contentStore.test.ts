import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { rawCid } from '../../core/media/cid';
import { ContentStore, LogoLargerThanCache } from './contentStore';

const PNG_HEADER = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const dirs: string[] = [];

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'content-store-'));
  dirs.push(dir);
  return dir;
}

/** `size` bytes that differ by `seed`, so each has its own CID. */
function bytesOf(size: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(size).fill(seed);
  bytes.set(PNG_HEADER);
  return bytes;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('ContentStore', () => {
  it('names a file by the CID of its bytes, keeps the same bytes once, and reads it back with its type', async () => {
    const dir = dataDir();
    const files = new ContentStore({ dataDir: dir });
    const bytes = bytesOf(100, 1);
    const cid = await files.put(bytes, 'png', 'image', 'own');
    expect(cid).toBe(rawCid(bytes));
    expect(await files.put(bytes, 'png', 'image', 'own')).toBe(cid);
    expect(readdirSync(join(dir, 'media')).sort()).toEqual([`${cid}.png`, 'others']);
    expect(await files.has(cid)).toBe(true);
    const file = await files.get(cid);
    expect(file).toMatchObject({ cid, type: 'png', mime: 'image/png' });
    expect(Buffer.from(file?.bytes ?? []).equals(Buffer.from(bytes))).toBe(true);
    const json = await files.put(new TextEncoder().encode('{"a":1}'), 'json', 'token metadata', 'own');
    expect(await files.get(json)).toMatchObject({ type: 'json', mime: 'application/json; charset=utf-8' });
  });

  it('never lets a malformed CID reach the file system', async () => {
    const files = new ContentStore({ dataDir: dataDir() });
    for (const cid of ['../../etc/passwd', 'bafkrei', '', 'others']) {
      expect(await files.has(cid)).toBe(false);
      expect(await files.get(cid)).toBeNull();
    }
  });

  it('clears temp files a crash left behind in either space before the first write', async () => {
    const dir = dataDir();
    mkdirSync(join(dir, 'media', 'others'), { recursive: true });
    writeFileSync(join(dir, 'media', 'half.abc.tmp'), 'x');
    writeFileSync(join(dir, 'media', 'others', 'half.def.tmp'), 'x');
    await new ContentStore({ dataDir: dir }).put(bytesOf(10, 2), 'png', 'image', 'own');
    const left = [...readdirSync(join(dir, 'media')), ...readdirSync(join(dir, 'media', 'others'))];
    expect(left.filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it("never removes the person's own files, refuses one that does not fit their share, and others cannot take it", async () => {
    const dir = dataDir();
    // 300 bytes each: the person's share and the cache's.
    const files = new ContentStore({ dataDir: dir, maxTotalBytes: 600, othersBytes: 300 });
    expect(files.shares).toEqual({ own: 300, others: 300 });
    // Other people's logos, many more than their share holds.
    for (let seed = 10; seed < 20; seed++) await files.put(bytesOf(100, seed), 'png', 'logo', 'others');
    expect((await files.used()).others).toBeLessThanOrEqual(300);
    const own = [];
    for (let seed = 3; seed < 6; seed++) own.push(await files.put(bytesOf(100, seed), 'png', 'image', 'own'));
    const full = await files.put(bytesOf(100, 6), 'png', 'image', 'own').catch((error: unknown) => error);
    expect(full).toMatchObject({ code: 'STORAGE_UNAVAILABLE' });
    expect((full as { fix?: string }).fix).toContain(join(dir, 'media'));
    // More logos come: they make room among themselves, never among the person's files.
    for (let seed = 20; seed < 25; seed++) await files.put(bytesOf(100, seed), 'png', 'logo', 'others');
    for (const cid of own) expect(await files.has(cid)).toBe(true);
    expect(await files.used()).toEqual({ own: 300, others: 300 });
  });

  it('removes the least recently used logos when a new one does not fit, reading one counting as use', async () => {
    let now = 1_000_000;
    const files = new ContentStore({ dataDir: dataDir(), maxTotalBytes: 600, othersBytes: 300, now: () => now });
    const [first, second, third] = [
      await files.put(bytesOf(100, 1), 'png', 'logo', 'others'),
      await files.put(bytesOf(100, 2), 'png', 'logo', 'others'),
      await files.put(bytesOf(100, 3), 'png', 'logo', 'others'),
    ];
    now += 1_000;
    expect(await files.get(first)).not.toBeNull(); // served: used now
    now += 1_000;
    const fourth = await files.put(bytesOf(100, 4), 'png', 'logo', 'others');
    expect(await files.has(second)).toBe(false);
    for (const cid of [first, third, fourth]) expect(await files.has(cid)).toBe(true);
    // The order outlives a restart: it is kept as each file's time.
    now += 1_000;
    const restarted = new ContentStore({
      dataDir: dirs.at(-1) ?? '',
      maxTotalBytes: 600,
      othersBytes: 300,
      now: () => now,
    });
    await restarted.put(bytesOf(200, 5), 'png', 'logo', 'others');
    expect(await restarted.has(third)).toBe(false);
    expect(await restarted.has(first)).toBe(false);
    expect(await restarted.has(fourth)).toBe(true);
    // A logo larger than the whole share is refused, and nothing is removed for it.
    const huge = await restarted.put(bytesOf(400, 6), 'png', 'logo', 'others').catch((error: unknown) => error);
    expect(huge).toMatchObject({ code: 'STORAGE_UNAVAILABLE' });
    expect((huge as Error).cause).toBeInstanceOf(LogoLargerThanCache);
    expect(await restarted.has(fourth)).toBe(true);
  });

  it("moves a cached logo into the person's space when they store the same bytes, and never copies theirs out", async () => {
    const dir = dataDir();
    const files = new ContentStore({ dataDir: dir, maxTotalBytes: 600, othersBytes: 300 });
    const shared = await files.put(bytesOf(100, 1), 'png', 'logo', 'others');
    expect(await files.put(bytesOf(100, 1), 'png', 'image', 'own')).toBe(shared);
    expect(readdirSync(join(dir, 'media'))).toContain(`${shared}.png`);
    expect(readdirSync(join(dir, 'media', 'others'))).toEqual([]);
    await files.put(bytesOf(100, 1), 'png', 'logo', 'others');
    expect(readdirSync(join(dir, 'media', 'others'))).toEqual([]);
    expect(await files.used()).toEqual({ own: 100, others: 0 });
  });

  it("moves other people's logos an earlier version kept with the person's files into the cache, once", async () => {
    const dir = dataDir();
    mkdirSync(join(dir, 'media'));
    const theirs = bytesOf(100, 1);
    const mine = bytesOf(100, 2);
    // A logo both an indexed launch and the person's own metadata name stays theirs.
    const both = bytesOf(100, 3);
    for (const bytes of [theirs, mine, both]) writeFileSync(join(dir, 'media', `${rawCid(bytes)}.png`), bytes);
    const metadata = new TextEncoder().encode(JSON.stringify({ image: `ipfs://${rawCid(both)}` }));
    writeFileSync(join(dir, 'media', `${rawCid(metadata)}.json`), metadata);
    const files = new ContentStore({ dataDir: dir, earlierOthers: () => [rawCid(theirs), rawCid(both)] });
    expect(await files.used()).toEqual({ own: 200 + metadata.length, others: 100 });
    expect(readdirSync(join(dir, 'media', 'others'))).toEqual([`${rawCid(theirs)}.png`]);
    expect(await files.get(rawCid(theirs))).not.toBeNull();
  });
});
