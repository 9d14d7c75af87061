import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { ApiError } from '../../core/errors';
import { findRawCids, isRawCid, rawCid } from '../../core/media/cid';
import { IMAGE_TYPES, type ImageType } from '../../core/media/sniffImage';
import { ServiceError } from '../../core/serviceError';

/** The media folder's total size: the person's own space and the cache of other people's logos together. */
export const DEFAULT_MAX_MEDIA_BYTES = 512 * 1024 * 1024;

export type MediaType = ImageType | 'json';

/**
 * Whose a stored file is. `own`: the person's uploads, the metadata their builds write and the images their builds
 * link to; never removed. `others`: logos of launches other people made, fetched from their links; a cache.
 */
export type MediaSpace = 'own' | 'others';

/** A stored file read back for serving. */
export interface MediaFile {
  cid: string;
  type: MediaType;
  /** The Content-Type to serve it with. */
  mime: string;
  bytes: Uint8Array<ArrayBuffer>;
}

export interface ContentStoreOptions {
  /** The app's data directory; files live in `<dataDir>/media/`. */
  dataDir: string;
  /** Total bytes the folder may hold, both spaces together (512 MiB by default). */
  maxTotalBytes?: number;
  /** The part of `maxTotalBytes` other people's logos may take (half by default); the rest is the person's own. */
  othersBytes?: number;
  /**
   * The CIDs of other people's logos among the files an earlier version kept in one space (the indexed launches'
   * logos nothing of the person's names): moved into the cache once, at the first start with two spaces.
   */
  earlierOthers?: () => Iterable<string>;
  /** The wall clock (Unix ms): when a cached logo was last used. */
  now?: () => number;
}

const EXTENSIONS: readonly (readonly [MediaType, string])[] = [
  ...(Object.keys(IMAGE_TYPES) as ImageType[]).map((type) => [type, IMAGE_TYPES[type].extension] as const),
  ['json', 'json'],
];
const JSON_MIME = 'application/json; charset=utf-8';
/** The cache's folder inside the media folder; the person's own files stay where they always were. */
const OTHERS_FOLDER = 'others';

/** Why another person's logo was not stored: it is larger than the cache's whole share, so it never will be. */
export class LogoLargerThanCache extends ServiceError {
  constructor(bytes: number, share: number) {
    super(`a logo of ${bytes} bytes does not fit the ${share} bytes kept for other people's logos`);
    this.name = 'LogoLargerThanCache';
  }
}

/** One cached logo, as the cache counts it. */
interface CachedFile {
  name: string;
  bytes: number;
  /** When it was last stored or read (Unix ms); the file's modification time keeps it across restarts. */
  usedAt: number;
}

/**
 * Content-addressed files under `<dataDir>/media/`, each named by the CID of its bytes and the extension of its type,
 * in two spaces with a share of the folder each. The person's own files (`media/`) are never removed: when their
 * share is full, a new one is refused. Other people's logos (`media/others/`) are a cache: when a new one would not
 * fit in its share, the least recently used ones (stored or read, serving included) are removed, to be fetched again
 * when next needed. So other people's launches can never take the person's space, however many and large.
 * Files are written to a temp file and renamed, so a crash leaves either the whole file or none; the same bytes
 * stored twice are one file, and bytes the person stores that were cached move into their space. It knows nothing of
 * what the bytes are: the media store checks them before they come here.
 *
 * @example
 * const files = new ContentStore({ dataDir });
 * const cid = await files.put(pngBytes, 'png', 'image', 'own'); // 'bafkrei…'
 * (await files.get(cid))?.mime // 'image/png'
 */
export class ContentStore {
  private readonly dir: string;
  private readonly othersDir: string;
  private readonly ownCap: number;
  private readonly othersCap: number;
  private readonly earlierOthers: () => Iterable<string>;
  private readonly now: () => number;
  private readying: Promise<void> | undefined;
  /** Writes one at a time, so the shares are checked against what is really there. */
  private writing: Promise<unknown> = Promise.resolve();
  /** Bytes in the person's own space, counted once ready. */
  private ownBytes = 0;
  /** The cached logos by CID, read once ready. */
  private readonly cached = new Map<string, CachedFile>();

  constructor(options: ContentStoreOptions) {
    this.dir = join(options.dataDir, 'media');
    this.othersDir = join(this.dir, OTHERS_FOLDER);
    const total = options.maxTotalBytes ?? DEFAULT_MAX_MEDIA_BYTES;
    this.othersCap = Math.min(total, options.othersBytes ?? Math.floor(total / 2));
    this.ownCap = total - this.othersCap;
    this.earlierOthers = options.earlierOthers ?? (() => []);
    this.now = options.now ?? Date.now;
  }

  /** The two shares of the folder, in bytes. */
  get shares(): { own: number; others: number } {
    return { own: this.ownCap, others: this.othersCap };
  }

  /** What each space holds now, in bytes. */
  async used(): Promise<{ own: number; others: number }> {
    await this.ready();
    let others = 0;
    for (const file of this.cached.values()) others += file.bytes;
    return { own: this.ownBytes, others };
  }

  /**
   * Stores `bytes` as a file of `type` in `space` and answers its CID. STORAGE_UNAVAILABLE when it cannot be written,
   * when the person's own space is full, or when a logo is larger than the cache's whole share; `what` names the file
   * in those messages ('image', 'token metadata').
   */
  async put(bytes: Uint8Array, type: MediaType, what: string, space: MediaSpace): Promise<string> {
    const cid = rawCid(bytes);
    const name = `${cid}.${type === 'json' ? 'json' : IMAGE_TYPES[type].extension}`;
    await this.write(() => (space === 'own' ? this.writeOwn(name, bytes, what) : this.writeOthers(name, bytes, what)));
    return cid;
  }

  /** Whether a file with this CID is stored here, in either space (false for a malformed CID). */
  async has(cid: string): Promise<boolean> {
    if (!isRawCid(cid)) return false;
    for (const folder of [this.dir, this.othersDir]) {
      for (const [, extension] of EXTENSIONS) {
        if (await isFile(join(folder, `${cid}.${extension}`)).catch(() => false)) return true;
      }
    }
    return false;
  }

  /**
   * A stored file by CID, from either space, or null when the CID is malformed or not stored here. Reading a cached
   * logo counts as using it. STORAGE_UNAVAILABLE on read errors.
   */
  async get(cid: string): Promise<MediaFile | null> {
    // Only a well-formed CID ever reaches the file system: it is 59 characters of [a-z2-7], so it cannot be a path.
    if (!isRawCid(cid)) return null;
    for (const folder of [this.dir, this.othersDir]) {
      for (const [type, extension] of EXTENSIONS) {
        const name = `${cid}.${extension}`;
        let bytes: Buffer;
        try {
          bytes = await readFile(join(folder, name));
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === 'ENOENT' || code === 'ENOTDIR') continue;
          throw new ApiError('STORAGE_UNAVAILABLE', 'the media folder could not be read', { cause: error });
        }
        if (folder === this.othersDir) await this.markUsed(cid, name);
        return { cid, type, mime: type === 'json' ? JSON_MIME : IMAGE_TYPES[type].mime, bytes: new Uint8Array(bytes) };
      }
    }
    return null;
  }

  /**
   * Creates the folders once, clears temp files a crash left behind (never renamed, so never served), counts both
   * spaces, and at the first start with two spaces moves the logos an earlier version kept with the person's files.
   */
  private ready(): Promise<void> {
    if (!this.readying) {
      const readying = (async () => {
        await mkdir(this.dir, { recursive: true });
        const sorted = await isDirectory(this.othersDir);
        await mkdir(this.othersDir, { recursive: true });
        for (const folder of [this.dir, this.othersDir]) {
          for (const name of await readdir(folder)) {
            if (name.endsWith('.tmp')) await rm(join(folder, name), { force: true });
          }
        }
        if (!sorted) await this.moveEarlierOthers();
        this.ownBytes = 0;
        for (const file of await filesIn(this.dir)) this.ownBytes += file.bytes;
        this.cached.clear();
        for (const file of await filesIn(this.othersDir)) {
          this.cached.set(cidOf(file.name), { name: file.name, bytes: file.bytes, usedAt: file.time });
        }
      })();
      // A failure is not kept: the folder may be writable on the next try.
      readying.catch(() => {
        if (this.readying === readying) this.readying = undefined;
      });
      this.readying = readying;
    }
    return this.readying;
  }

  /**
   * Moves into the cache the files an earlier version stored for other people's launches, which it kept with the
   * person's own: those `earlierOthers` names, unless a metadata document here (which only the person's builds write)
   * names them too.
   */
  private async moveEarlierOthers(): Promise<void> {
    const candidates = new Set(this.earlierOthers());
    if (candidates.size === 0) return;
    const files = await filesIn(this.dir);
    for (const file of files.filter((each) => each.name.endsWith('.json'))) {
      const text = await readFile(join(this.dir, file.name), 'utf8').catch(() => '');
      for (const cid of findRawCids(text)) candidates.delete(cid);
    }
    for (const file of files) {
      if (file.name.endsWith('.json') || !candidates.has(cidOf(file.name))) continue;
      await rename(join(this.dir, file.name), join(this.othersDir, file.name));
    }
  }

  /** Runs one write after the others, so each sees what the one before left. */
  private write(step: () => Promise<void>): Promise<void> {
    const done = this.writing.then(async () => {
      try {
        await this.ready();
        await step();
      } catch (error) {
        if (error instanceof ApiError) throw error;
        throw new ApiError('STORAGE_UNAVAILABLE', 'the media folder could not be written', { cause: error });
      }
    });
    this.writing = done.catch(() => undefined);
    return done;
  }

  /** Stores a file of the person's own, within their share; a copy the cache holds moves here instead. */
  private async writeOwn(name: string, bytes: Uint8Array, what: string): Promise<void> {
    const target = join(this.dir, name);
    // Same bytes, same name: already theirs.
    if (await isFile(target)) return;
    if (this.ownBytes + bytes.length > this.ownCap) throw this.ownSpaceFull(bytes.length, what);
    const cached = this.cached.get(cidOf(name));
    if (cached && (await isFile(join(this.othersDir, name)))) {
      await rename(join(this.othersDir, name), target);
      this.cached.delete(cidOf(name));
    } else {
      await writeWhole(this.dir, name, bytes, what);
    }
    this.ownBytes += bytes.length;
  }

  /**
   * Stores another person's logo in the cache, removing the least recently used ones until it fits. Bytes already in
   * the person's own space are theirs, and stay there alone.
   */
  private async writeOthers(name: string, bytes: Uint8Array, what: string): Promise<void> {
    if (await isFile(join(this.dir, name))) return;
    const cid = cidOf(name);
    if (this.cached.has(cid) && (await isFile(join(this.othersDir, name)))) {
      await this.markUsed(cid, name);
      return;
    }
    this.cached.delete(cid);
    if (bytes.length > this.othersCap) {
      throw new ApiError(
        'STORAGE_UNAVAILABLE',
        `the ${what} is ${mb(bytes.length)}, more than the ${mb(this.othersCap)} kept for other people's logos`,
        {
          fix: 'This logo is shown as a placeholder; nothing of yours is affected.',
          cause: new LogoLargerThanCache(bytes.length, this.othersCap),
        },
      );
    }
    await this.evictFor(bytes.length);
    await writeWhole(this.othersDir, name, bytes, what);
    this.cached.set(cid, { name, bytes: bytes.length, usedAt: this.now() });
  }

  /** Removes cached logos, least recently used first, until `size` more bytes fit in the cache's share. */
  private async evictFor(size: number): Promise<void> {
    let total = 0;
    for (const file of this.cached.values()) total += file.bytes;
    if (total + size <= this.othersCap) return;
    const oldestFirst = [...this.cached.entries()].sort(([, a], [, b]) => a.usedAt - b.usedAt);
    for (const [cid, file] of oldestFirst) {
      if (total + size <= this.othersCap) break;
      await rm(join(this.othersDir, file.name), { force: true });
      this.cached.delete(cid);
      total -= file.bytes;
    }
  }

  /** Records that a cached logo was used now, in memory and as its file's time (so the order outlives a restart). */
  private async markUsed(cid: string, name: string): Promise<void> {
    const usedAt = this.now();
    const file = this.cached.get(cid);
    if (file) file.usedAt = usedAt;
    const when = new Date(usedAt);
    // A logo removed between the read and now simply has no time to renew.
    await utimes(join(this.othersDir, name), when, when).catch(() => undefined);
  }

  private ownSpaceFull(size: number, what: string): ApiError {
    return new ApiError(
      'STORAGE_UNAVAILABLE',
      `the space for your own media is full (${mb(this.ownBytes)} of ${mb(this.ownCap)} used, ${mb(size)} more ` +
        `needed), so the ${what} cannot be stored`,
      {
        fix:
          `Your uploads and the files of your launches are never removed for you: delete images you no longer need ` +
          `from ${this.dir} (not its ${OTHERS_FOLDER} folder, which other people's logos use), then try again.`,
      },
    );
  }
}

/** Writes `bytes` as `folder/name`, whole or not at all: a temp file, synced, then renamed. */
async function writeWhole(folder: string, name: string, bytes: Uint8Array, what: string): Promise<void> {
  const target = join(folder, name);
  const temp = join(folder, `${name.split('.')[0]}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await open(temp, 'wx');
    try {
      await handle.writeFile(bytes);
      // On disk before the rename makes it visible, so a power cut cannot leave a named but empty file.
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw new ApiError('STORAGE_UNAVAILABLE', `the ${what} could not be written to the media folder`, {
      cause: error,
    });
  }
}

/** The stored files of one folder (temp files and folders left out), with their size and modification time. */
async function filesIn(folder: string): Promise<{ name: string; bytes: number; time: number }[]> {
  const files: { name: string; bytes: number; time: number }[] = [];
  for (const name of await readdir(folder)) {
    if (name.endsWith('.tmp')) continue;
    const info = await stat(join(folder, name)).catch(() => null);
    if (info?.isFile()) files.push({ name, bytes: info.size, time: info.mtimeMs });
  }
  return files;
}

function cidOf(name: string): string {
  return name.split('.')[0] ?? '';
}

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}
