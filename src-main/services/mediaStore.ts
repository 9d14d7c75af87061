import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, stat, utimes } from 'node:fs/promises';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { ApiError } from '../core/errors';
import { addressRange } from '../core/media/addressRange';
import { findRawCids, isRawCid, looksLikeCid, rawCid } from '../core/media/cid';
import { declaredImageType, IMAGE_TYPES, type ImageType, mediaTypeOf, sniffImage } from '../core/media/sniffImage';
import { readCapped } from '../core/readCapped';
import {
  fetchLink,
  LinkFetchError,
  type LoopbackAllowance,
  mayConnect,
  type ResolveHost,
  systemResolve,
} from './linkFetch';

/** The spec's image limit, "up to 5 MB", read generously as 5 MiB. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** Token metadata is a few hundred bytes of JSON; anything near this size is not metadata. */
export const MAX_METADATA_BYTES = 256 * 1024;
export const DEFAULT_FETCH_TIMEOUT_MS = 10_000;
/** Uploads and link fetches in progress at once; each may hold up to 5 MB in memory. */
export const DEFAULT_MAX_IN_PROGRESS = 4;
/** Fetches of other people's launch metadata and logos at once: a budget of their own, apart from the user's. */
export const DEFAULT_BACKGROUND_IN_PROGRESS = 2;
/** A stranger's metadata host gets this long, so a tarpit of launches holds a background slot only briefly. */
export const DEFAULT_BACKGROUND_FETCH_TIMEOUT_MS = 4_000;
/** The media folder's total size; unreferenced files are removed, oldest first, to stay under it. */
export const DEFAULT_MAX_MEDIA_BYTES = 512 * 1024 * 1024;
/**
 * How long a file just stored counts as in use by a build not yet sent: a launch build is signable until its
 * deadline (20 minutes), and may be mined a little later. Older files nothing stored names may be removed.
 */
export const DEFAULT_PENDING_BUILD_MS = 30 * 60 * 1000;
const MAX_REDIRECTS = 3;

export type MediaType = ImageType | 'json';

/** Something kept in the store, as the API shows it. */
export interface StoredMedia {
  /** CIDv1 (raw, sha2-256, base32) of the stored bytes. */
  cid: string;
  /** `ipfs://<cid>`: the same for the same bytes on any machine. */
  uri: string;
  /** Where this server serves the bytes: `<origin>/media/<cid>`. */
  url: string;
  type: MediaType;
  /** Size in bytes. */
  bytes: number;
}

export interface StoredImage extends StoredMedia {
  type: ImageType;
}

/** A stored file read back for serving. */
export interface MediaFile {
  cid: string;
  type: MediaType;
  /** The Content-Type to serve it with. */
  mime: string;
  bytes: Uint8Array<ArrayBuffer>;
}

/** Optional token details sent with a launch, as the launch body carries them. */
export interface TokenDetailsInput {
  description?: unknown;
  website?: unknown;
  x?: unknown;
  telegram?: unknown;
}

/** Token details once checked: absent or empty details are left out, handles are turned into links. */
export interface TokenDetails {
  description?: string;
  website?: string;
  x?: string;
  telegram?: string;
}

export interface TokenMetadataInput extends TokenDetailsInput {
  name: string;
  symbol: string;
  /** The logo: `ipfs://<cid>` of a stored image (preferred, it outlives this server), or an https:// link. */
  image: string;
}

/** The metadata document stored for a launch. */
export interface TokenMetadata extends TokenDetails {
  name: string;
  symbol: string;
  image: string;
}

/** A metadataURI read and checked. */
export interface ResolvedMetadata {
  uri: string;
  /** The whole document, as JSON parsed it. */
  metadata: Record<string, unknown>;
  /** Its `image`, a non-empty string. */
  image: string;
}

export interface MediaStoreOptions {
  /** The app's data directory; media lives in `<dataDir>/media/`. */
  dataDir: string;
  /** This server's origin (`http://127.0.0.1:8787`), when already known; otherwise call `setOrigin` once listening. */
  origin?: string;
  /**
   * Lets image and metadata links reach this machine (http(s)://127.0.0.1, localhost, a name resolving to loopback):
   * the devnet allows any port so tests run offline; `{ ports }` allows only those. Private, link-local and metadata
   * addresses are refused whatever it says.
   */
  allowLoopbackLinks?: LoopbackAllowance;
  /** How host names are resolved (the system resolver by default); checked on each connection. */
  resolveHost?: ResolveHost;
  /** Whole-fetch deadline for a link, redirects and body included. */
  fetchTimeoutMs?: number;
  /** Uploads and link fetches allowed in progress at once; more answer UPLOADS_BUSY. */
  maxInProgress?: number;
  /** Background fetches (other people's launch metadata and logos) allowed at once; a budget of their own. */
  backgroundMaxInProgress?: number;
  /** Whole-fetch deadline of a background fetch. */
  backgroundFetchTimeoutMs?: number;
  /** Whether background fetches may reach other people's hosts at all (default true); false fetches nothing. */
  thirdPartyFetches?: boolean;
  /** Total bytes the media folder may hold (512 MiB by default). */
  maxTotalBytes?: number;
  /** The CIDs stored data still points at (launches, open prepared requests): never removed to make room. */
  references?: () => Iterable<string>;
  /** How long a newly stored file counts as used by a build not yet sent (30 minutes by default). */
  pendingBuildMs?: number;
  /** The wall clock (Unix ms), for the age of files. */
  now?: () => number;
}

/** Whose fetch it is: the user's own (upload, launch build), or the service's own look at someone else's launch. */
export interface FetchBudget {
  /** A fetch the service makes by itself: its own small budget and short deadline, and none when switched off. */
  background?: boolean;
}

/** Why a background fetch was not made: third-party fetches are switched off. */
export class ThirdPartyFetchesOff extends Error {
  constructor() {
    super('third-party fetches are switched off in Settings');
    this.name = 'ThirdPartyFetchesOff';
  }
}

/**
 * How a failed link read should be taken: `off` (fetches switched off), `busy` (this server's slots were full),
 * `transient` (no whole answer, or a server error: try again later), `final` (the link or what it serves is unusable).
 */
export function linkFailureKind(error: unknown): 'off' | 'busy' | 'transient' | 'final' {
  if (!(error instanceof ApiError)) return 'transient';
  if (error.code === 'UPLOADS_BUSY') return 'busy';
  if (error.code === 'STORAGE_UNAVAILABLE') return 'transient';
  const cause = error.cause;
  if (cause instanceof ThirdPartyFetchesOff) return 'off';
  if (cause instanceof LinkFetchError) {
    if (cause.failure === 'unreachable') return 'transient';
    if (cause.failure === 'status' && (Number(cause.detail) >= 500 || cause.detail === 429)) return 'transient';
  }
  return 'final';
}

const EXTENSIONS: readonly (readonly [MediaType, string])[] = [
  ...(Object.keys(IMAGE_TYPES) as ImageType[]).map((type) => [type, IMAGE_TYPES[type].extension] as const),
  ['json', 'json'],
];
const JSON_MIME = 'application/json; charset=utf-8';
const LIMITS_TEXT = `${MAX_IMAGE_BYTES / 1024 / 1024} MB`;

/** What differs between fetching an image link and a metadata link. */
interface FetchRules {
  what: 'image' | 'metadata';
  field: string;
  /** The code of a link that cannot be used. */
  linkCode: 'INVALID_IMAGE' | 'INVALID_METADATA_URI';
  cap: number;
  tooLarge: () => ApiError;
  accept: string;
}

/**
 * Content-addressed storage of launch images and token metadata under `<dataDir>/media/`, named by CID, plus the
 * fetching of image and metadata links with timeouts and size caps. Files are written to a temp file and renamed,
 * so a crash leaves either the whole file or none; the same bytes stored twice are one file.
 *
 * @example
 * const media = new MediaStore({ dataDir, allowLoopbackLinks: network === 'devnet' });
 * media.setOrigin('http://127.0.0.1:8787');
 * const logo = await media.putImage(bytes, 'image/png'); // { cid, uri: 'ipfs://bafkrei…', url, type: 'png', bytes }
 */
export class MediaStore {
  private readonly dir: string;
  private readonly allowLoopbackLinks: LoopbackAllowance;
  private readonly resolveHost: ResolveHost;
  private readonly thirdPartyFetches: boolean;
  private readonly maxTotalBytes: number;
  private readonly references: () => Iterable<string>;
  private readonly pendingBuildMs: number;
  private readonly now: () => number;
  private readonly budgets: Record<'user' | 'background', { max: number; timeoutMs: number; inProgress: number }>;
  private origin: URL | undefined;
  private readying: Promise<void> | undefined;
  /** Writes one at a time, so the size cap is checked against what is really there. */
  private writing: Promise<unknown> = Promise.resolve();
  /** Bytes in the folder, once counted. */
  private totalBytes: number | undefined;

  constructor(options: MediaStoreOptions) {
    this.dir = join(options.dataDir, 'media');
    this.allowLoopbackLinks = options.allowLoopbackLinks ?? false;
    this.resolveHost = options.resolveHost ?? systemResolve;
    this.thirdPartyFetches = options.thirdPartyFetches ?? true;
    this.maxTotalBytes = options.maxTotalBytes ?? DEFAULT_MAX_MEDIA_BYTES;
    this.references = options.references ?? (() => []);
    this.pendingBuildMs = options.pendingBuildMs ?? DEFAULT_PENDING_BUILD_MS;
    this.now = options.now ?? Date.now;
    this.budgets = {
      user: {
        max: options.maxInProgress ?? DEFAULT_MAX_IN_PROGRESS,
        timeoutMs: options.fetchTimeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS,
        inProgress: 0,
      },
      background: {
        max: options.backgroundMaxInProgress ?? DEFAULT_BACKGROUND_IN_PROGRESS,
        timeoutMs: options.backgroundFetchTimeoutMs ?? DEFAULT_BACKGROUND_FETCH_TIMEOUT_MS,
        inProgress: 0,
      },
    };
    if (options.origin !== undefined) this.setOrigin(options.origin);
  }

  /** Whether background fetches may reach other people's hosts (the Settings switch). */
  get fetchesThirdParty(): boolean {
    return this.thirdPartyFetches;
  }

  /** Background fetches allowed at once. */
  get backgroundSlots(): number {
    return this.budgets.background.max;
  }

  /** Sets the origin the `url`s of stored media are built on; the server knows its port only once listening. */
  setOrigin(origin: string): void {
    this.origin = new URL(origin);
  }

  /**
   * Stores image bytes: PNG, JPEG, GIF or WebP by their bytes (UNSUPPORTED_IMAGE otherwise, or when
   * `declaredContentType` names another type), up to 5 MB (IMAGE_TOO_LARGE). UPLOADS_BUSY when too many are in
   * progress; STORAGE_UNAVAILABLE when the file cannot be written.
   */
  putImage(bytes: Uint8Array, declaredContentType?: string): Promise<StoredImage> {
    return this.inSlot({}, () => this.storeImage(bytes, declaredContentType));
  }

  /**
   * Stores an upload read from a request body, taking a slot before reading so slow uploads count against the limit.
   * The declared type and length are checked before a byte is read; the body is read only up to 5 MB.
   *
   * @example await media.receiveImage(c.req.raw.body, c.req.header('content-type'), c.req.header('content-length'))
   */
  async receiveImage(
    body: ReadableStream<Uint8Array> | null,
    declaredContentType?: string,
    declaredLength?: string,
  ): Promise<StoredImage> {
    const declared = declaredContentType?.trim() ? declaredContentType : undefined;
    if (declared !== undefined) refuseNonImageDeclaration(declared);
    if (declaredLength !== undefined && Number(declaredLength) > MAX_IMAGE_BYTES) {
      throw imageTooLarge(`the body is ${declaredLength} bytes`);
    }
    return this.inSlot({}, async () => {
      let bytes: Uint8Array;
      try {
        // The rest of an oversized body is left unread rather than cancelled: cancelling would reset the connection
        // before the 413 could be sent. The HTTP server discards what is left.
        bytes = await readCapped(body, MAX_IMAGE_BYTES, () => imageTooLarge('the body'), false);
      } catch (error) {
        if (error instanceof ApiError) throw error;
        throw new ApiError('UNSUPPORTED_IMAGE', 'the upload body could not be read to its end', { cause: error });
      }
      return this.storeImage(bytes, declared);
    });
  }

  /**
   * The image behind a launch's `image` link, stored here. https:// links are fetched (http://127.0.0.1 and
   * localhost too with `allowLoopbackLinks`) within the timeout, following at most 3 redirects, reading at most 5 MB.
   * Links to this server's `/media/<cid>` and `ipfs://<cid>` of an image stored here are read from the store.
   * Errors carry `field: 'image'`: INVALID_IMAGE (unusable link, network failure, not 2xx, timeout),
   * IMAGE_TOO_LARGE, UNSUPPORTED_IMAGE, UPLOADS_BUSY, STORAGE_UNAVAILABLE. With `background`, the fetch takes a
   * background slot and deadline, and is not made at all while third-party fetches are off.
   *
   * @example await media.fetchImage('https://example.com/logo.png')
   */
  async fetchImage(link: unknown, budget: FetchBudget = {}): Promise<StoredImage> {
    const field = 'image';
    if (typeof link !== 'string' || link.trim() === '') {
      throw new ApiError('INVALID_IMAGE', 'image must be an https:// link to the image', { field });
    }
    if (/^ipfs:/i.test(link.trim())) {
      const cid = ipfsUriCid(link);
      const file = cid === undefined ? null : await this.get(cid);
      if (!file) {
        throw new ApiError('INVALID_IMAGE', `${link} is not stored on this server, and no IPFS gateway is reachable`, {
          field,
          fix: 'Upload the image with POST /media/image and send the uri it answers, or send an https:// link.',
        });
      }
      return this.localImage(file, link);
    }
    const url = parseUrl(link);
    if (!url) throw new ApiError('INVALID_IMAGE', 'image is not a link; send an https:// link to the image', { field });
    const own = this.ownMediaCid(url);
    if (own !== undefined) {
      const file = own === null ? null : await this.get(own);
      if (!file) throw new ApiError('INVALID_IMAGE', `no image is stored on this server at ${url.pathname}`, { field });
      return this.localImage(file, link);
    }
    const problem = this.linkProblem(url);
    if (problem) throw new ApiError('INVALID_IMAGE', `the image link ${problem}`, { field });
    this.refuseWhenOff('INVALID_IMAGE', field, budget);
    return this.inSlot(budget, async (timeoutMs) => {
      const bytes = await this.download(url, timeoutMs, {
        what: 'image',
        field,
        linkCode: 'INVALID_IMAGE',
        cap: MAX_IMAGE_BYTES,
        tooLarge: () => imageTooLarge('the image behind the link', field),
        accept: 'image/png, image/jpeg, image/gif, image/webp;q=0.9, */*;q=0.1',
      });
      return this.storeImage(bytes, undefined, field);
    });
  }

  /**
   * Stores the metadata document of a launch as canonical JSON (keys sorted, no spaces), so the same token details
   * always give the same CID. The details follow `checkTokenDetails`; name, symbol and image must be non-empty
   * strings (name up to 64 bytes, symbol up to 32); the image an ipfs:// or https:// link. INVALID_METADATA with
   * `field` for anything that cannot be stored as sent, MISSING_IMAGE without an image.
   *
   * @example await media.putMetadata({ name: 'Moon', symbol: 'MOON', x: '@moon', image: logo.uri })
   */
  async putMetadata(input: TokenMetadataInput): Promise<StoredMedia & { metadata: TokenMetadata }> {
    const metadata = this.checkMetadata(input);
    const bytes = new TextEncoder().encode(canonicalJson(metadata));
    const cid = rawCid(bytes);
    await this.write(cid, 'json', bytes, 'token metadata');
    return { ...this.describe(cid, 'json', bytes.length), metadata };
  }

  /**
   * Reads a launch's `metadataURI` and checks that it is a JSON object with an image. ipfs:// URIs are answered from
   * this store only (no gateway is reachable offline); https:// links are fetched with the same timeout, redirect
   * and size rules as images (metadata up to 256 KiB). Errors carry `field: 'metadataURI'`: INVALID_METADATA_URI
   * (not https:// or ipfs://, not stored here, unreachable), INVALID_METADATA (not a JSON object), MISSING_IMAGE.
   *
   * @example await media.resolveMetadataURI('ipfs://bafkrei…') // { uri, metadata, image: 'ipfs://bafkrei…' }
   */
  async resolveMetadataURI(uri: unknown, budget: FetchBudget = {}): Promise<ResolvedMetadata> {
    const field = 'metadataURI';
    if (typeof uri !== 'string' || uri.trim() === '') {
      throw new ApiError('INVALID_METADATA_URI', 'metadataURI must be an https:// or ipfs:// link', { field });
    }
    let bytes: Uint8Array;
    const isIpfs = /^ipfs:/i.test(uri.trim());
    const url = isIpfs ? null : parseUrl(uri);
    const own = url ? this.ownMediaCid(url) : undefined;
    if (isIpfs || own !== undefined) {
      const cid = isIpfs ? ipfsUriCid(uri) : own;
      const file = cid ? await this.get(cid) : null;
      if (!file) {
        const name = cid && looksLikeCid(cid) ? 'that CID' : 'that path';
        throw new ApiError(
          'INVALID_METADATA_URI',
          `${uri}: ${name} is not stored on this server, and no IPFS gateway is reachable from here`,
          {
            field,
            fix: 'Send an https:// link to the metadata, or leave metadataURI out and send the image and details.',
          },
        );
      }
      if (file.type !== 'json') {
        throw new ApiError('INVALID_METADATA', `${uri} is a ${file.type.toUpperCase()} image, not metadata JSON`, {
          field,
        });
      }
      bytes = file.bytes;
    } else {
      const problem = !url ? 'is not a link' : this.linkProblem(url);
      if (!url || problem) {
        throw new ApiError('INVALID_METADATA_URI', `metadataURI ${problem}; send an https:// or ipfs:// link`, {
          field,
        });
      }
      this.refuseWhenOff('INVALID_METADATA_URI', field, budget);
      bytes = await this.inSlot(budget, (timeoutMs) =>
        this.download(url, timeoutMs, {
          what: 'metadata',
          field,
          linkCode: 'INVALID_METADATA_URI',
          cap: MAX_METADATA_BYTES,
          tooLarge: () =>
            new ApiError('INVALID_METADATA', `the metadata is over ${MAX_METADATA_BYTES / 1024} KiB`, { field }),
          accept: 'application/json, */*;q=0.1',
        }),
      );
    }
    return readMetadataDocument(uri, bytes, field);
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

  private async storeImage(bytes: Uint8Array, declaredContentType?: string, field?: string): Promise<StoredImage> {
    const where = field ? { field } : {};
    if (bytes.length === 0) {
      throw new ApiError('UNSUPPORTED_IMAGE', 'the image is empty: no bytes were sent', where);
    }
    if (bytes.length > MAX_IMAGE_BYTES) throw imageTooLarge(`the image is ${bytes.length} bytes`, field);
    const sniffed = sniffImage(bytes);
    if (!sniffed) {
      throw new ApiError(
        'UNSUPPORTED_IMAGE',
        field
          ? 'the image link did not serve a PNG, JPEG, GIF or WebP image'
          : 'the body is not a PNG, JPEG, GIF or WebP image; send the image bytes themselves',
        where,
      );
    }
    if (declaredContentType !== undefined && declaredImageType(declaredContentType) !== sniffed.type) {
      throw new ApiError(
        'UNSUPPORTED_IMAGE',
        `the Content-Type says ${mediaTypeOf(declaredContentType)}, but the bytes are a ${sniffed.type.toUpperCase()} image`,
        { ...where, fix: `Send the image with Content-Type ${sniffed.mime}.` },
      );
    }
    const cid = rawCid(bytes);
    await this.write(cid, IMAGE_TYPES[sniffed.type].extension, bytes, 'image');
    return this.describe(cid, sniffed.type, bytes.length) as StoredImage;
  }

  private localImage(file: MediaFile, link: string): StoredImage {
    if (file.type === 'json') {
      throw new ApiError('UNSUPPORTED_IMAGE', `${link} is token metadata, not an image`, { field: 'image' });
    }
    return this.describe(file.cid, file.type, file.bytes.length) as StoredImage;
  }

  private describe(cid: string, type: MediaType, size: number): StoredMedia {
    if (!this.origin) throw new Error('MediaStore: setOrigin was not called, so media URLs cannot be built');
    return { cid, uri: `ipfs://${cid}`, url: `${this.origin.origin}/media/${cid}`, type, bytes: size };
  }

  private checkMetadata(input: TokenMetadataInput): TokenMetadata {
    const known = new Set(['name', 'symbol', 'image', 'description', 'website', 'x', 'telegram']);
    for (const key of Object.keys(input)) {
      if (!known.has(key)) {
        throw new ApiError('INVALID_METADATA', `${key} is not a token detail the service stores`, { field: key });
      }
    }
    const name = checkLabel(input.name, 'name', 64);
    const symbol = checkLabel(input.symbol, 'symbol', 32);
    const image = input.image;
    if (typeof image !== 'string' || image.trim() === '') {
      throw new ApiError('MISSING_IMAGE', 'the token metadata needs an image', { field: 'image' });
    }
    if (image.length > MAX_LINK_CHARS) {
      throw new ApiError('INVALID_METADATA', `image is over ${MAX_LINK_CHARS} characters`, { field: 'image' });
    }
    if (!/^ipfs:/i.test(image)) {
      const url = parseUrl(image);
      const problem = url ? this.linkProblem(url) : 'is not a link';
      if (problem) {
        throw new ApiError('INVALID_METADATA', `image ${problem}`, {
          field: 'image',
          fix: 'Send the ipfs:// uri of an image stored with POST /media/image, or an https:// link.',
        });
      }
    } else if (!looksLikeCid(ipfsUriCid(image) ?? '')) {
      throw new ApiError('INVALID_METADATA', 'image is not an ipfs://<cid> link', { field: 'image' });
    }
    return { name, symbol, image, ...checkTokenDetails(input) };
  }

  /**
   * Why a link may not be fetched, or null when it may: https:// (or http:// to this machine, when loopback links are
   * allowed) without credentials, and not an address written in the link that may not be reached. Names are checked
   * again when connecting, against what they resolve to.
   */
  private linkProblem(url: URL): string | null {
    if (url.username || url.password) return 'carries a user name or password';
    const loopbackName = isLoopbackHost(url.hostname);
    const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopbackName)) {
      return `is ${url.protocol}//, and only https:// links are accepted`;
    }
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(literal) !== 0 && !mayConnect(literal, port, this.allowLoopbackLinks)) {
      const range = addressRange(literal);
      return range === 'loopback'
        ? `points at this machine (${url.hostname})`
        : `points at a ${range} network address (${url.hostname})`;
    }
    if (loopbackName && !mayConnect('127.0.0.1', port, this.allowLoopbackLinks)) {
      return `points at this machine (${url.hostname})`;
    }
    return null;
  }

  /** While third-party fetches are off, a background read that would need the network is not made. */
  private refuseWhenOff(code: 'INVALID_IMAGE' | 'INVALID_METADATA_URI', field: string, budget: FetchBudget): void {
    if (budget.background && !this.thirdPartyFetches) {
      throw new ApiError(code, 'third-party fetches are switched off in Settings, so this link is not read', {
        field,
        cause: new ThirdPartyFetchesOff(),
      });
    }
  }

  /**
   * For a link to this server's own `/media/…` path: the CID it names (null when malformed). undefined for any other
   * link. Checked before the loopback rule, so the store's own URLs work whatever `allowLoopbackLinks` says.
   */
  private ownMediaCid(url: URL): string | null | undefined {
    const own = this.origin;
    if (!own || url.protocol !== own.protocol || url.port !== own.port || !isLoopbackHost(url.hostname)) {
      return undefined;
    }
    if (!url.pathname.startsWith('/media/')) return undefined;
    const cid = url.pathname.slice('/media/'.length);
    return isRawCid(cid) && !url.search ? cid : null;
  }

  /**
   * Fetches a checked link: each connection checked against what its name resolves to, redirects re-checked hop by
   * hop, one deadline for everything, a capped body. Failures to connect, refused, closed or timed out, give one
   * message, so an answer never tells whether something listens at an address.
   */
  private async download(link: URL, timeoutMs: number, rules: FetchRules): Promise<Uint8Array> {
    try {
      return await fetchLink(link, {
        resolve: this.resolveHost,
        allowLoopback: this.allowLoopbackLinks,
        timeoutMs,
        cap: rules.cap,
        accept: rules.accept,
        maxRedirects: MAX_REDIRECTS,
        checkRedirect: (next) => this.linkProblem(next),
      });
    } catch (error) {
      if (!(error instanceof LinkFetchError)) throw error;
      if (error.failure === 'too-large') throw rules.tooLarge();
      const message =
        error.failure === 'unreachable'
          ? `the ${rules.what} link could not be fetched: no whole answer came within ${timeoutMs / 1000} s`
          : `the ${rules.what} link ${error.message}`;
      throw new ApiError(rules.linkCode, message, { field: rules.field, cause: error });
    }
  }

  /**
   * Runs `work` in one of its budget's slots, or answers UPLOADS_BUSY at once: queueing would hold memory unbounded.
   * Background fetches have a budget of their own, so they can never fill the user's.
   */
  private async inSlot<T>(budget: FetchBudget, work: (timeoutMs: number) => Promise<T>): Promise<T> {
    const slots = this.budgets[budget.background ? 'background' : 'user'];
    if (slots.inProgress >= slots.max) {
      throw new ApiError(
        'UPLOADS_BUSY',
        budget.background
          ? `${slots.max} background fetches are already in progress`
          : `${slots.max} image uploads or fetches are already in progress`,
        { retryAfterSeconds: 2 },
      );
    }
    slots.inProgress++;
    try {
      return await work(slots.timeoutMs);
    } finally {
      slots.inProgress--;
    }
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

/** Longest link kept in metadata. */
export const MAX_LINK_CHARS = 256;
/** Longest description kept in metadata, in characters (code points). */
export const MAX_DESCRIPTION_CHARS = 1000;

const X_HOSTS = new Set(['x.com', 'www.x.com', 'mobile.x.com', 'twitter.com', 'www.twitter.com', 'mobile.twitter.com']);
const TELEGRAM_HOSTS = new Set(['t.me', 'www.t.me', 'telegram.me', 'www.telegram.me', 'telegram.dog']);
/** X handles: 1 to 15 letters, digits or underscores. */
const X_HANDLE = /^@?([A-Za-z0-9_]{1,15})$/;
/** Telegram usernames: 5 to 32 characters (4 for some old ones), letters, digits, underscores, starting with a letter. */
const TELEGRAM_HANDLE = /^@?([A-Za-z][A-Za-z0-9_]{3,31})$/;
// C0 controls and DEL; newlines and tabs are allowed in a description only.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const ANY_CONTROL = /[\u0000-\u001f\u007f]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL_OR_SPACE = /[\s\u0000-\u001f\u007f]/;

/**
 * Checks a launch's optional token details and puts them in the form stored in metadata. Rules:
 * - each is a string; absent, null or blank means "not given" and is left out;
 * - description: up to 1000 characters, no control characters other than newlines and tabs;
 * - website: an https:// link to a public host name, up to 256 characters, without user name or password;
 * - x: an X handle (`@name` or `name`, stored as https://x.com/name) or an https:// link on x.com or twitter.com;
 * - telegram: a Telegram username (`@name` or `name`, stored as https://t.me/name) or an https:// link on t.me or
 *   telegram.me (invite links included).
 * Links are stored as sent (trimmed). Anything else is INVALID_METADATA with `field` naming the detail.
 *
 * @example checkTokenDetails({ x: '@moon', telegram: 'moon_chat' })
 * // { x: 'https://x.com/moon', telegram: 'https://t.me/moon_chat' }
 */
export function checkTokenDetails(details: TokenDetailsInput): TokenDetails {
  const out: TokenDetails = {};
  const description = given(details.description, 'description');
  if (description !== undefined) {
    if ([...description].length > MAX_DESCRIPTION_CHARS) {
      throw invalidDetail('description', `is over ${MAX_DESCRIPTION_CHARS} characters`);
    }
    if (CONTROL.test(description)) throw invalidDetail('description', 'contains control characters');
    out.description = description;
  }
  const website = given(details.website, 'website');
  if (website !== undefined)
    out.website = checkLink(website, 'website', 'an https:// link such as https://example.com');
  const x = given(details.x, 'x');
  if (x !== undefined) {
    const handle = X_HANDLE.exec(x)?.[1];
    out.x = handle
      ? `https://x.com/${handle}`
      : checkLink(x, 'x', 'an X handle such as @name, or an https://x.com/… link', X_HOSTS);
  }
  const telegram = given(details.telegram, 'telegram');
  if (telegram !== undefined) {
    const handle = TELEGRAM_HANDLE.exec(telegram)?.[1];
    out.telegram = handle
      ? `https://t.me/${handle}`
      : checkLink(telegram, 'telegram', 'a Telegram username such as @name, or an https://t.me/… link', TELEGRAM_HOSTS);
  }
  return out;
}

/**
 * JSON with object keys sorted at every level and no whitespace, so equal documents are equal bytes (and one CID).
 *
 * @example canonicalJson({ b: 1, a: { d: 2, c: 3 } }) // '{"a":{"c":3,"d":2},"b":1}'
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(
          Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : inner,
  );
}

function invalidDetail(field: string, problem: string, fix?: string): ApiError {
  return new ApiError('INVALID_METADATA', `${field} ${problem}`, { field, ...(fix ? { fix: `Send ${fix}.` } : {}) });
}

/** The trimmed string of a detail, undefined when not given. */
function given(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalidDetail(field, `must be a string, not ${typeof value}`);
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

function checkLink(text: string, field: string, expected: string, hosts?: ReadonlySet<string>): string {
  const url = parseUrl(text);
  const problem =
    text.length > MAX_LINK_CHARS
      ? `is over ${MAX_LINK_CHARS} characters`
      : CONTROL_OR_SPACE.test(text)
        ? 'contains spaces or control characters'
        : url?.protocol !== 'https:'
          ? 'is not an https:// link'
          : url.username || url.password
            ? 'carries a user name or password'
            : !url.hostname.includes('.') || isLoopbackHost(url.hostname) || isNonPublicAddress(url.hostname)
              ? 'does not point at a public site'
              : hosts && !hosts.has(url.hostname)
                ? `is not on ${[...hosts][0]}`
                : hosts && url.pathname.length <= 1
                  ? 'names no account or group'
                  : null;
  if (problem) throw invalidDetail(field, problem, expected);
  return text;
}

function checkLabel(value: unknown, field: string, maxBytes: number): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new ApiError('INVALID_METADATA', `${field} must be a non-empty string`, { field });
  }
  if (Buffer.byteLength(value, 'utf8') > maxBytes) {
    throw new ApiError('INVALID_METADATA', `${field} is over ${maxBytes} bytes`, { field });
  }
  if (ANY_CONTROL.test(value)) {
    throw new ApiError('INVALID_METADATA', `${field} contains control characters`, { field });
  }
  return value;
}

function readMetadataDocument(uri: string, bytes: Uint8Array, field: string): ResolvedMetadata {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new ApiError('INVALID_METADATA', `the metadata at ${uri} is not JSON`, { field });
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ApiError('INVALID_METADATA', `the metadata at ${uri} is not a JSON object`, { field });
  }
  const metadata = parsed as Record<string, unknown>;
  const image = metadata.image;
  if (typeof image !== 'string' || image.trim() === '') {
    throw new ApiError('MISSING_IMAGE', `the metadata at ${uri} has no image`, { field });
  }
  return { uri, metadata, image };
}

function imageTooLarge(what: string, field?: string): ApiError {
  return new ApiError('IMAGE_TOO_LARGE', `${what} is over the ${LIMITS_TEXT} image limit`, field ? { field } : {});
}

/** Refuses, before any byte is read, a body whose Content-Type says it is not one of our images. */
function refuseNonImageDeclaration(contentType: string): void {
  const declared = declaredImageType(contentType);
  const fix =
    'Send the image file itself as the body with its Content-Type, for example ' +
    "curl -H 'Content-Type: image/png' --data-binary @logo.png.";
  if (declared === 'other-image') {
    throw new ApiError('UNSUPPORTED_IMAGE', `${mediaTypeOf(contentType)} is not accepted; only PNG, JPEG, GIF, WebP`, {
      fix,
    });
  }
  if (declared === null) {
    throw new ApiError(
      'UNSUPPORTED_IMAGE',
      `the body is declared as ${mediaTypeOf(contentType)}, not as an image; the body must be the image itself, not JSON or form data`,
      { fix },
    );
  }
}

/** The CID of `ipfs://<cid>` (or `ipfs://ipfs/<cid>`); undefined when `text` is not such a URI. */
function ipfsUriCid(text: string): string | undefined {
  return /^ipfs:\/\/(?:ipfs\/)?([^/?#]+)\/?$/i.exec(text.trim())?.[1];
}

function parseUrl(text: string, base?: URL): URL | null {
  try {
    return new URL(text.trim(), base);
  } catch {
    return null;
  }
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
  );
}

/** An IP address written as a host (IPv6 in brackets) that is not a public one. */
function isNonPublicAddress(hostname: string): boolean {
  const literal = hostname.replace(/^\[|\]$/g, '');
  return isIP(literal) !== 0 && addressRange(literal) !== 'public';
}
