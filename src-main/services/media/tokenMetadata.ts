import type { z } from 'zod';
import {
  type LinkProblem,
  metadataDocumentSchema,
  metadataIssue,
  type TokenDetails,
  tokenDetailsSchema,
  tokenMetadataSchema,
} from '../../../src-shared/schema/metadata';
import { ApiError } from '../../core/errors';

/** Optional token details sent with a launch, as the launch body carries them. */
export interface TokenDetailsInput {
  description?: unknown;
  website?: unknown;
  x?: unknown;
  telegram?: unknown;
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

/**
 * Checks a launch's optional token details against `tokenDetailsSchema` and puts them in the form stored in
 * metadata: details not given are left out, handles are turned into links, links are kept as sent (trimmed).
 * Anything else is INVALID_METADATA with `field` naming the detail.
 *
 * @example checkTokenDetails({ x: '@moon', telegram: 'moon_chat' })
 * // { x: 'https://x.com/moon', telegram: 'https://t.me/moon_chat' }
 */
export function checkTokenDetails(details: TokenDetailsInput): TokenDetails {
  const parsed = tokenDetailsSchema.safeParse(details);
  if (!parsed.success) throw metadataError(parsed.error);
  return given(parsed.data);
}

/**
 * Checks a launch's metadata document against `tokenMetadataSchema`, the image link asked of `imageLinkProblem`.
 * INVALID_METADATA with `field` for anything that cannot be stored as sent, MISSING_IMAGE without an image.
 *
 * @example checkTokenMetadata({ name: 'Moon', symbol: 'MOON', image: 'ipfs://bafkrei…' }, (image) => null)
 */
export function checkTokenMetadata(
  input: TokenMetadataInput,
  imageLinkProblem: (image: string) => LinkProblem | null,
): TokenMetadata {
  const parsed = tokenMetadataSchema(imageLinkProblem).safeParse(input);
  if (!parsed.success) throw metadataError(parsed.error);
  const { name, symbol, image, ...details } = parsed.data;
  return { name, symbol, image, ...given(details) };
}

/**
 * Reads the bytes behind a `metadataURI` as a metadata document: JSON (UTF-8) holding an object with an image.
 * INVALID_METADATA when it is not a JSON object, MISSING_IMAGE without an image; both with `field`.
 */
export function readMetadataDocument(uri: string, bytes: Uint8Array, field: string): ResolvedMetadata {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new ApiError('INVALID_METADATA', `the metadata at ${uri} is not JSON`, { field });
  }
  const checked = metadataDocumentSchema.safeParse(parsed);
  if (!checked.success) {
    // An issue at the top is the document itself; any other is its image.
    if (checked.error.issues.some((issue) => issue.path.length === 0)) {
      throw new ApiError('INVALID_METADATA', `the metadata at ${uri} is not a JSON object`, { field });
    }
    throw new ApiError('MISSING_IMAGE', `the metadata at ${uri} has no image`, { field });
  }
  // The document as JSON parsed it, not zod's copy of it: it is shown and stored as it was written.
  const metadata = parsed as Record<string, unknown>;
  return { uri, metadata, image: checked.data.image };
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

/** The details that were given, in the order the API has always listed them. */
function given(details: { description?: string; website?: string; x?: string; telegram?: string }): TokenDetails {
  const out: TokenDetails = {};
  for (const key of ['description', 'website', 'x', 'telegram'] as const) {
    const value = details[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

function metadataError(error: z.ZodError): ApiError {
  const { code, message, field, fix } = metadataIssue(error);
  return new ApiError(code, message, { field, ...(fix === undefined ? {} : { fix }) });
}
