import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { ApiError } from '../../core/errors';
import { findRawCids, isRawCid, rawCid } from '../../core/media/cid';
import { IMAGE_TYPES, type ImageType } from '../../core/media/sniffImage';

/** The media folder's total size; unreferenced files are removed, oldest first, to stay under it. */
export const DEFAULT_MAX_MEDIA_BYTES = 512 * 1024 * 1024;
/**
 * How long a file just stored counts as in use by a build not yet sent: a launch build is signable until its
 * deadline (20 minutes), and may be mined a little later. Older files nothing stored names may be removed.
 */
export const DEFAULT_PENDING_BUILD_MS = 30 * 60 * 1000;

export type MediaType = ImageType | 'json';

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
  /** Total bytes the folder may hold (512 MiB by default). */
  maxTotalBytes?: number;
  /** The CIDs stored data still points at (launches, open prepared requests): never removed to make room. */
  references?: () => Iterable<string>;
  /** How long a newly stored file counts as used by a build not yet sent (30 minutes by default). */
  pendingBuildMs?: number;
  /** The wall clock (Unix ms), for the age of files. */
  now?: () => number;
}

const EXTENSIONS: readonly (readonly [MediaType, string])[] = [
  ...(Object.keys(IMAGE_TYPES) as ImageType[]).map((type) => [type, IMAGE_TYPES[type].extension] as const),
  ['json', 'json'],
];
const JSON_MIME = 'application/json; charset=utf-8';

/**
 * Content-addressed files under `<dataDir>/media/`, each named by the CID of its bytes and the extension of its type.
 * Files are written to a temp file and renamed, so a crash leaves either the whole file or none; the same bytes
 * stored twice are one file. The folder is kept under a size cap by removing, oldest first, files nothing refers to.
 * It knows nothing of what the bytes are: the media store checks them before they come here.
 *
 * @example
 * const files = new ContentStore({ dataDir, references: () => mediaReferences(db) });
 * const cid = await files.put(pngBytes, 'png', 'image'); // 'bafkrei…'
 * (await files.get(cid))?.mime // 'image/png'
 */
export class ContentStore {
  private readonly dir: string;
  private readonly maxTotalBytes: number;
  private readonly references: () => Iterable<string>;
  private readonly pendingBuildMs: number;
  private readonly now: () => number;
  private readying: Promise<void> | undefined;
  /** Writes one at a time, so the size cap is checked against what is really there. */
  private writing: Promise<unknown> = Promise.resolve();
  /** Bytes in the folder, once counted. */
  private totalBytes: number | undefined;

  constructor(options: ContentStoreOptions) {
    this.dir = join(options.dataDir, 'media');
    this.maxTotalBytes = options.maxTotalBytes ?? DEFAULT_MAX_MEDIA_BYTES;
    this.references = options.references ?? (() => []);
    this.pendingBuildMs = options.pendingBuildMs ?? DEFAULT_PENDING_BUILD_MS;
    this.now = options.now ?? Date.now;
  }

  /**
   * Stores `bytes` as a file of `type` and answers its CID. STORAGE_UNAVAILABLE when it cannot be written, or when
   * the folder is full of files still in use; `what` names the file in those messages ('image', 'token metadata').
   */
  async put(bytes: Uint8Array, type: MediaType, what: string): Promise<string> {
    const cid = rawCid(bytes);
    await this.write(cid, type === 'json' ? 'json' : IMAGE_TYPES[type].extension, bytes, what);
    return cid;
  }

  /** Whether a file with this CID is stored here (false for a malformed CID). */
  async has(cid: string): Promise<boolean> {
    if (!isRawCid(cid)) return false;
    for (const [, extension] of EXTENSIONS) {
      if (
        await stat(join(this.dir, `${cid}.${extension}`)).then(
          () => true,
          () => false,
        )
      )
        return true;
    }
    return false;
  }

  /** A stored file by CID, or null when the CID is malformed or not stored here. STORAGE_UNAVAILABLE on read errors. */
  async get(cid: string): Promise<MediaFile | null> {
    // Only a well-formed CID ever reaches the file system: it is 59 characters of [a-z2-7], so it cannot be a path.
    if (!isRawCid(cid)) return null;
    for (const [type, extension] of EXTENSIONS) {
      try {
        const bytes = await readFile(join(this.dir, `${cid}.${extension}`));
        return { cid, type, mime: type === 'json' ? JSON_MIME : IMAGE_TYPES[type].mime, bytes: new Uint8Array(bytes) };
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') continue;
        throw new ApiError('STORAGE_UNAVAILABLE', 'the media folder could not be read', { cause: error });
      }
    }
    return null;
  }

  /** Creates the media folder once and clears temp files a crash left behind (never renamed, so never served). */
  private ready(): Promise<void> {
    if (!this.readying) {
      const readying = (async () => {
        await mkdir(this.dir, { recursive: true });
        for (const name of await readdir(this.dir)) {
          if (name.endsWith('.tmp')) await rm(join(this.dir, name), { force: true });
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

  /** Writes one file, one write at a time so the size cap holds. */
  private write(cid: string, extension: string, bytes: Uint8Array, what: string): Promise<void> {
    const done = this.writing.then(() => this.writeNow(cid, extension, bytes, what));
    this.writing = done.catch(() => undefined);
    return done;
  }

  private async writeNow(cid: string, extension: string, bytes: Uint8Array, what: string): Promise<void> {
    const target = join(this.dir, `${cid}.${extension}`);
    const temp = join(this.dir, `${cid}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      await this.ready();
      // Same bytes, same name: a file already there is this very content. Its time is renewed, as it is in use again.
      if (await isFile(target)) {
        const now = new Date(this.now());
        await utimes(target, now, now);
        return;
      }
      await this.makeRoom(bytes.length, what);
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
        this.totalBytes = (this.totalBytes ?? 0) + bytes.length;
      } catch (error) {
        await rm(temp, { force: true }).catch(() => undefined);
        throw error;
      }
    } catch (error) {
      if (error instanceof ApiError) throw error;
      throw new ApiError('STORAGE_UNAVAILABLE', `the ${what} could not be written to the media folder`, {
        cause: error,
      });
    }
  }

  /**
   * Keeps the folder under its cap with `size` more bytes: removes files nothing points at, oldest first. A file is
   * kept when a stored launch or open prepared request names it (or a metadata document they name does), or when it
   * was stored within the pending-build time (a build answered but not yet sent). STORAGE_UNAVAILABLE when only such
   * files are left and the new one still does not fit.
   */
  private async makeRoom(size: number, what: string): Promise<void> {
    if (this.totalBytes !== undefined && this.totalBytes + size <= this.maxTotalBytes) return;
    const files: { name: string; cid: string; bytes: number; time: number }[] = [];
    for (const name of await readdir(this.dir)) {
      if (name.endsWith('.tmp')) continue;
      const info = await stat(join(this.dir, name)).catch(() => null);
      if (info?.isFile()) files.push({ name, cid: name.split('.')[0] ?? '', bytes: info.size, time: info.mtimeMs });
    }
    let total = files.reduce((sum, file) => sum + file.bytes, 0);
    this.totalBytes = total;
    if (total + size <= this.maxTotalBytes) return;
    const kept = await this.referencedCids(files);
    const cutoff = this.now() - this.pendingBuildMs;
    const removable = files.filter((file) => !kept.has(file.cid) && file.time < cutoff).sort((a, b) => a.time - b.time);
    for (const file of removable) {
      if (total + size <= this.maxTotalBytes) break;
      await rm(join(this.dir, file.name), { force: true });
      total -= file.bytes;
      this.totalBytes = total;
    }
    if (total + size > this.maxTotalBytes) {
      throw new ApiError(
        'STORAGE_UNAVAILABLE',
        `the media folder is full (${mb(total)} of ${mb(this.maxTotalBytes)}) with files launches and recent builds ` +
          `use, so the ${what} cannot be stored`,
        { fix: 'Try again later: files of builds never sent are removed once their deadline has passed.' },
      );
    }
  }

  /** The CIDs in use: those stored data names, and those named inside the metadata documents among them. */
  private async referencedCids(files: readonly { name: string; cid: string }[]): Promise<Set<string>> {
    const kept = new Set(this.references());
    for (const file of files) {
      if (!kept.has(file.cid) || !file.name.endsWith('.json')) continue;
      const text = await readFile(join(this.dir, file.name), 'utf8').catch(() => '');
      for (const cid of findRawCids(text)) kept.add(cid);
    }
    return kept;
  }
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
