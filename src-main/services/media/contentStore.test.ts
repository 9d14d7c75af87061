import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { rawCid } from '../../core/media/cid';
import { ContentStore } from './contentStore';

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
    const cid = await files.put(bytes, 'png', 'image');
    expect(cid).toBe(rawCid(bytes));
    expect(await files.put(bytes, 'png', 'image')).toBe(cid);
    expect(readdirSync(join(dir, 'media'))).toEqual([`${cid}.png`]);
    expect(await files.has(cid)).toBe(true);
    const file = await files.get(cid);
    expect(file).toMatchObject({ cid, type: 'png', mime: 'image/png' });
    expect(Buffer.from(file?.bytes ?? []).equals(Buffer.from(bytes))).toBe(true);
    const json = await files.put(new TextEncoder().encode('{"a":1}'), 'json', 'token metadata');
    expect(await files.get(json)).toMatchObject({ type: 'json', mime: 'application/json; charset=utf-8' });
  });

  it('never lets a malformed CID reach the file system', async () => {
    const files = new ContentStore({ dataDir: dataDir() });
    for (const cid of ['../../etc/passwd', 'bafkrei', '']) {
      expect(await files.has(cid)).toBe(false);
      expect(await files.get(cid)).toBeNull();
    }
  });

  it('clears temp files a crash left behind before the first write', async () => {
    const dir = dataDir();
    mkdirSync(join(dir, 'media'));
    writeFileSync(join(dir, 'media', 'half.abc.tmp'), 'x');
    await new ContentStore({ dataDir: dir }).put(bytesOf(10, 2), 'png', 'image');
    expect(readdirSync(join(dir, 'media')).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('makes room by removing the oldest files nothing names, and refuses when only files in use are left', async () => {
    const dir = dataDir();
    const now = Date.now();
    const referenced = new Set<string>();
    const files = new ContentStore({
      dataDir: dir,
      maxTotalBytes: 250,
      pendingBuildMs: 1_000,
      references: () => referenced,
      now: () => now,
    });
    const old = await files.put(bytesOf(100, 3), 'png', 'image');
    const kept = await files.put(bytesOf(100, 4), 'png', 'image');
    referenced.add(kept);
    // Both stored long enough ago to be past the pending-build time.
    for (const cid of [old, kept])
      utimesSync(join(dir, 'media', `${cid}.png`), new Date(now - 60_000), new Date(now - 60_000));
    const fresh = await files.put(bytesOf(100, 5), 'png', 'image');
    expect(await files.has(old)).toBe(false);
    expect(await files.has(kept)).toBe(true);
    // The folder holds a referenced file and one within its pending-build time: nothing can go.
    const full = await files.put(bytesOf(100, 6), 'png', 'image').catch((error: unknown) => error);
    expect(full).toMatchObject({ code: 'STORAGE_UNAVAILABLE' });
    expect(await files.has(fresh)).toBe(true);
  });
});
