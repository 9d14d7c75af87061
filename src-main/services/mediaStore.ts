import { isLoopbackName } from '../../src-shared/net/addressRange';
import { ApiError } from '../core/errors';
import { isRawCid, looksLikeCid } from '../core/media/cid';
import { declaredImageType, type ImageType, mediaTypeOf, sniffImage } from '../core/media/sniffImage';
import { readCapped } from '../core/readCapped';
import {
  ContentStore,
  type ContentStoreOptions,
  type MediaFile,
  type MediaSpace,
  type MediaType,
} from './media/contentStore';
import { GuardedFetcher, type GuardedFetcherOptions } from './media/guardedFetch';
import { type FetchBudget, MediaSlots, type MediaSlotsOptions } from './media/mediaSlots';
import {
  canonicalJson,
  checkTokenMetadata,
  type ResolvedMetadata,
  readMetadataDocument,
  type TokenMetadata,
  type TokenMetadataInput,
} from './media/tokenMetadata';

/** The spec's image limit, "up to 5 MB", read generously as 5 MiB. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** Token metadata is a few hundred bytes of JSON; anything near this size is not metadata. */
export const MAX_METADATA_BYTES = 256 * 1024;

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

export interface MediaStoreOptions extends ContentStoreOptions, GuardedFetcherOptions, MediaSlotsOptions {
  /** This server's origin (`http://127.0.0.1:8787`), when already known; otherwise call `setOrigin` once listening. */
  origin?: string;
}

const LIMITS_TEXT = `${MAX_IMAGE_BYTES / 1024 / 1024} MB`;

/**
 * Launch images and token metadata, as the API and the launch builder see them: uploads and links checked and stored
 * by CID, metadata documents written and read. It composes three parts: the content store (the files on disk, by
 * CID, in two spaces: the person's own, never pruned, and a cache of other people's logos), the guarded fetcher (outbound fetches of links, with their address, redirect, size and time
 * limits and the third-party switch) and the media slots (how many uploads and fetches run at once); the metadata
 * rules are the shared schema's (src-shared/schema/metadata).
 *
 * @example
 * const media = new MediaStore({ dataDir, allowLoopbackLinks: network === 'devnet' });
 * media.setOrigin('http://127.0.0.1:8787');
 * const logo = await media.putImage(bytes, 'image/png'); // { cid, uri: 'ipfs://bafkrei…', url, type: 'png', bytes }
 */
export class MediaStore {
  private readonly files: ContentStore;
  private readonly fetcher: GuardedFetcher;
  private readonly slots: MediaSlots;
  private origin: URL | undefined;
  private refetch: ((cid: string) => Promise<void>) | undefined;

  constructor(options: MediaStoreOptions) {
    this.files = new ContentStore(options);
    this.fetcher = new GuardedFetcher(options);
    this.slots = new MediaSlots(options);
    if (options.origin !== undefined) this.setOrigin(options.origin);
  }

  /** Whether background fetches may reach other people's hosts (the person's choice). */
  get fetchesThirdParty(): boolean {
    return this.fetcher.fetchesThirdParty;
  }

  /** Applies the person's choice at once: off, no background fetch starts from now on. */
  setFetchesThirdParty(on: boolean): void {
    this.fetcher.setFetchesThirdParty(on);
  }

  /**
   * Names what fetches a cached logo again when it is asked for and no longer here (the cache removed it to make
   * room): the launch images, which know whose logo it was.
   */
  refetchMissingWith(refetch: (cid: string) => Promise<void>): void {
    this.refetch = refetch;
  }

  /** The two shares of the media folder, and what each holds now, in bytes. */
  async space(): Promise<{ shares: { own: number; others: number }; used: { own: number; others: number } }> {
    return { shares: this.files.shares, used: await this.files.used() };
  }

  /** Background fetches allowed at once. */
  get backgroundSlots(): number {
    return this.slots.backgroundSlots;
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
    return this.slots.run({}, () => this.storeImage(bytes, 'own', declaredContentType));
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
    return this.slots.run({}, async () => {
      let bytes: Uint8Array;
      try {
        // The rest of an oversized body is left unread rather than cancelled: cancelling would reset the connection
        // before the 413 could be sent. The HTTP server discards what is left.
        bytes = await readCapped(body, MAX_IMAGE_BYTES, () => imageTooLarge('the body'), false);
      } catch (error) {
        if (error instanceof ApiError) throw error;
        throw new ApiError('UNSUPPORTED_IMAGE', 'the upload body could not be read to its end', { cause: error });
      }
      return this.storeImage(bytes, 'own', declared);
    });
  }

  /**
   * The image behind a launch's `image` link, stored here. https:// links are fetched (http://127.0.0.1 and
   * localhost too with `allowLoopbackLinks`) within the timeout, following at most 3 redirects, reading at most 5 MB.
   * Links to this server's `/media/<cid>` and `ipfs://<cid>` of an image stored here are read from the store.
   * Errors carry `field: 'image'`: INVALID_IMAGE (unusable link, network failure, not 2xx, timeout),
   * IMAGE_TOO_LARGE, UNSUPPORTED_IMAGE, UPLOADS_BUSY, STORAGE_UNAVAILABLE. With `background`, the fetch takes a
   * background slot and deadline, is not made at all while third-party fetches are off, and what it fetches is
   * another person's logo, kept in the cache; otherwise it is the person's own (a link their build names).
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
    const problem = this.fetcher.problemWith(url);
    if (problem) throw new ApiError('INVALID_IMAGE', `the image link ${problem}`, { field });
    this.fetcher.refuseWhenOff('INVALID_IMAGE', field, budget);
    return this.slots.run(budget, async (timeoutMs) => {
      const bytes = await this.fetcher.fetch(url, timeoutMs, {
        what: 'image',
        field,
        linkCode: 'INVALID_IMAGE',
        cap: MAX_IMAGE_BYTES,
        tooLarge: () => imageTooLarge('the image behind the link', field),
        accept: 'image/png, image/jpeg, image/gif, image/webp;q=0.9, */*;q=0.1',
      });
      return this.storeImage(bytes, budget.background ? 'others' : 'own', undefined, field);
    });
  }

  /**
   * Stores the metadata document of a launch as canonical JSON (keys sorted, no spaces), so the same token details
   * always give the same CID. The document follows `tokenMetadataSchema` (src-shared/schema/metadata); name, symbol and image must be non-empty
   * strings (name up to 64 bytes, symbol up to 32); the image an ipfs:// or https:// link. INVALID_METADATA with
   * `field` for anything that cannot be stored as sent, MISSING_IMAGE without an image.
   *
   * @example await media.putMetadata({ name: 'Moon', symbol: 'MOON', x: '@moon', image: logo.uri })
   */
  async putMetadata(input: TokenMetadataInput): Promise<StoredMedia & { metadata: TokenMetadata }> {
    const metadata = checkTokenMetadata(input, (image) => this.imageLinkProblem(image));
    const bytes = new TextEncoder().encode(canonicalJson(metadata));
    // Only the person's builds write metadata here: it is theirs.
    const cid = await this.files.put(bytes, 'json', 'token metadata', 'own');
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
      const problem = !url ? 'is not a link' : this.fetcher.problemWith(url);
      if (!url || problem) {
        throw new ApiError('INVALID_METADATA_URI', `metadataURI ${problem}; send an https:// or ipfs:// link`, {
          field,
        });
      }
      this.fetcher.refuseWhenOff('INVALID_METADATA_URI', field, budget);
      bytes = await this.slots.run(budget, (timeoutMs) =>
        this.fetcher.fetch(url, timeoutMs, {
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
  has(cid: string): Promise<boolean> {
    return this.files.has(cid);
  }

  /** A stored file by CID, or null when the CID is malformed or not stored here. STORAGE_UNAVAILABLE on read errors. */
  get(cid: string): Promise<MediaFile | null> {
    return this.files.get(cid);
  }

  /**
   * A stored file asked for by a reader (`GET /media/<cid>`): when it is another person's logo the cache removed, it
   * is fetched again first (while third-party fetches are on), so a pruned logo shows when next needed.
   */
  async serve(cid: string): Promise<MediaFile | null> {
    const file = await this.files.get(cid);
    if (file || !this.refetch || !this.fetchesThirdParty || !isRawCid(cid)) return file;
    await this.refetch(cid);
    return this.files.get(cid);
  }

  private async storeImage(
    bytes: Uint8Array,
    space: MediaSpace,
    declaredContentType?: string,
    field?: string,
  ): Promise<StoredImage> {
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
    const cid = await this.files.put(bytes, sniffed.type, space === 'own' ? 'image' : "other person's logo", space);
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

  /**
   * Why a metadata document's image link cannot be stored, or null when it can: an ipfs://<cid>, or a link the
   * fetcher would fetch.
   */
  private imageLinkProblem(image: string): { problem: string; fix?: string } | null {
    if (/^ipfs:/i.test(image)) {
      return looksLikeCid(ipfsUriCid(image) ?? '') ? null : { problem: 'is not an ipfs://<cid> link' };
    }
    const url = parseUrl(image);
    const problem = url ? this.fetcher.problemWith(url) : 'is not a link';
    return problem
      ? { problem, fix: 'Send the ipfs:// uri of an image stored with POST /media/image, or an https:// link.' }
      : null;
  }

  /**
   * For a link to this server's own `/media/…` path: the CID it names (null when malformed). undefined for any other
   * link. Checked before the loopback rule, so the store's own URLs work whatever `allowLoopbackLinks` says.
   */
  private ownMediaCid(url: URL): string | null | undefined {
    const own = this.origin;
    if (!own || url.protocol !== own.protocol || url.port !== own.port || !isLoopbackName(url.hostname)) {
      return undefined;
    }
    if (!url.pathname.startsWith('/media/')) return undefined;
    const cid = url.pathname.slice('/media/'.length);
    return isRawCid(cid) && !url.search ? cid : null;
  }
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

function parseUrl(text: string): URL | null {
  try {
    return new URL(text.trim());
  } catch {
    return null;
  }
}
