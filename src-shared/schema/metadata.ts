import { z } from 'zod';
import { isLoopbackName, isNonPublicAddress } from '../net/addressRange';
import { utf8Bytes } from './common';

/**
 * The token metadata document a launch points at (`metadataURI`), and the optional token details a launch sends, as
 * zod schemas: one set of rules for what the service stores, what it reads back from other people's metadata, and
 * what a form may check before sending. Every issue's message is the whole sentence the API answers, with the field
 * first; `params.fix` carries a fix when the rule has one, `params.code` the error code when it is not
 * INVALID_METADATA (see `metadataIssue`).
 */

/** Longest link kept in metadata. */
export const MAX_LINK_CHARS = 256;
/** Longest description kept in metadata, in characters (code points). */
export const MAX_DESCRIPTION_CHARS = 1000;
/** Longest token name, in UTF-8 bytes. */
export const MAX_NAME_BYTES = 64;
/** Longest token symbol, in UTF-8 bytes. */
export const MAX_SYMBOL_BYTES = 32;

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

/** The error codes a metadata issue can carry; INVALID_METADATA unless `params.code` says otherwise. */
export type MetadataErrorCode = 'INVALID_METADATA' | 'MISSING_IMAGE';

/** Why a link cannot be used, and what to send instead; what `tokenMetadataSchema` asks about the image link. */
export interface LinkProblem {
  problem: string;
  fix?: string;
}

/** A detail as sent: absent, null or blank is "not given" (undefined); anything else that is not a string is refused. */
function given(field: string) {
  return z
    .string({ error: (issue) => `${field} must be a string, not ${typeof issue.input}` })
    .nullish()
    .transform((value) => (value == null || value.trim() === '' ? undefined : value.trim()));
}

/** Up to 1000 characters, without control characters other than newlines and tabs. */
const description = given('description').pipe(
  z
    .string()
    .refine((text) => [...text].length <= MAX_DESCRIPTION_CHARS, {
      error: `description is over ${MAX_DESCRIPTION_CHARS} characters`,
      abort: true,
    })
    .refine((text) => !CONTROL.test(text), 'description contains control characters')
    .optional(),
);

/**
 * Why `text` is not an https:// link to a public site (on one of `hosts`, naming an account there, when given), or
 * null when it is one.
 */
function publicLinkProblem(text: string, hosts?: ReadonlySet<string>): string | null {
  const url = parseUrl(text);
  if (text.length > MAX_LINK_CHARS) return `is over ${MAX_LINK_CHARS} characters`;
  if (CONTROL_OR_SPACE.test(text)) return 'contains spaces or control characters';
  if (url?.protocol !== 'https:') return 'is not an https:// link';
  if (url.username || url.password) return 'carries a user name or password';
  if (!url.hostname.includes('.') || isLoopbackName(url.hostname) || isNonPublicAddress(url.hostname)) {
    return 'does not point at a public site';
  }
  if (hosts && !hosts.has(url.hostname)) return `is not on ${[...hosts][0]}`;
  if (hosts && url.pathname.length <= 1) return 'names no account or group';
  return null;
}

/**
 * An https:// link to a public site, kept as sent (trimmed); with `handle`, also an account name, turned into the
 * link of that account.
 */
function link(field: string, expected: string, rule: { hosts?: ReadonlySet<string>; handle?: [RegExp, string] } = {}) {
  return given(field).transform((text, ctx) => {
    if (text === undefined) return undefined;
    const [pattern, base] = rule.handle ?? [];
    const name = pattern?.exec(text)?.[1];
    if (name) return `${base}${name}`;
    const problem = publicLinkProblem(text, rule.hosts);
    if (problem) {
      ctx.issues.push({
        code: 'custom',
        input: text,
        message: `${field} ${problem}`,
        params: { fix: `Send ${expected}.` },
      });
    }
    return text;
  });
}

const website = link('website', 'an https:// link such as https://example.com');
const x = link('x', 'an X handle such as @name, or an https://x.com/… link', {
  hosts: X_HOSTS,
  handle: [X_HANDLE, 'https://x.com/'],
});
const telegram = link('telegram', 'a Telegram username such as @name, or an https://t.me/… link', {
  hosts: TELEGRAM_HOSTS,
  handle: [TELEGRAM_HANDLE, 'https://t.me/'],
});

/**
 * A launch's optional token details, in the form stored in metadata. Rules:
 * - each is a string; absent, null or blank means "not given" (undefined);
 * - description: up to 1000 characters, no control characters other than newlines and tabs;
 * - website: an https:// link to a public host name, up to 256 characters, without user name or password;
 * - x: an X handle (`@name` or `name`, stored as https://x.com/name) or an https:// link on x.com or twitter.com;
 * - telegram: a Telegram username (`@name` or `name`, stored as https://t.me/name) or an https:// link on t.me or
 *   telegram.me (invite links included).
 * Other keys are let through untouched (a launch body carries more than these). Each detail's schema is usable alone
 * (`tokenDetailsSchema.shape.x`), for metadata written elsewhere whose bad details are simply left out.
 *
 * @example tokenDetailsSchema.parse({ x: '@moon', telegram: 'moon_chat' })
 * // { x: 'https://x.com/moon', telegram: 'https://t.me/moon_chat' } (a detail sent blank is there as undefined)
 */
export const tokenDetailsSchema = z.object({ description, website, x, telegram });

/** The token details a launch stores, once checked: a detail not given is left out. */
export type TokenDetails = { [K in keyof z.output<typeof tokenDetailsSchema>]?: string };

/** A name or symbol: a non-empty string of at most `maxBytes` UTF-8 bytes, without control characters. */
function label(field: string, maxBytes: number) {
  return z
    .string({ error: `${field} must be a non-empty string` })
    .refine((text) => text.trim() !== '', { error: `${field} must be a non-empty string`, abort: true })
    .refine((text) => utf8Bytes(text) <= maxBytes, {
      error: `${field} is over ${maxBytes} bytes`,
      abort: true,
    })
    .refine((text) => !ANY_CONTROL.test(text), `${field} contains control characters`);
}

/** A non-empty string: the one thing every metadata document must have in `image`. */
const hasImage = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/**
 * The metadata document a launch stores: name (up to 64 bytes), symbol (up to 32), image (up to 256 characters, and
 * whatever `imageLinkProblem` says of it: the service asks its fetch guard), and the details of `tokenDetailsSchema`.
 * No other key. Without an image the issue's code is MISSING_IMAGE.
 *
 * @example tokenMetadataSchema().parse({ name: 'Moon', symbol: 'MOON', image: 'ipfs://bafkrei…', x: '@moon' })
 */
export function tokenMetadataSchema(imageLinkProblem: (image: string) => LinkProblem | null = () => null) {
  const image = z
    .unknown()
    .refine(hasImage, { error: 'the token metadata needs an image', params: { code: 'MISSING_IMAGE' }, abort: true })
    .pipe(
      z
        .string()
        .refine((text) => text.length <= MAX_LINK_CHARS, {
          error: `image is over ${MAX_LINK_CHARS} characters`,
          abort: true,
        })
        .superRefine((text, ctx) => {
          const found = imageLinkProblem(text);
          if (found) {
            const params = found.fix === undefined ? {} : { fix: found.fix };
            ctx.issues.push({ code: 'custom', input: text, message: `image ${found.problem}`, params });
          }
        }),
    );
  return z.strictObject(
    {
      name: label('name', MAX_NAME_BYTES),
      symbol: label('symbol', MAX_SYMBOL_BYTES),
      image,
      description,
      website,
      x,
      telegram,
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys' ? `${issue.keys[0]} is not a token detail the service stores` : undefined,
    },
  );
}

/**
 * A metadata document read back from a `metadataURI`, wherever it was written: any JSON object with a non-empty
 * string `image`. Everything else in it is let through as it is.
 */
export const metadataDocumentSchema = z.looseObject({ image: z.string().refine(hasImage) });

/** The keys of a metadata document in the order they are checked: the first issue reported is the first here. */
const CHECK_ORDER = ['name', 'symbol', 'image', 'description', 'website', 'x', 'telegram'];

/** One issue of a metadata schema, as the API answers it. */
export interface MetadataIssue {
  code: MetadataErrorCode;
  /** The key of the document that was wrong. */
  field: string;
  message: string;
  fix?: string;
}

/**
 * The issue the API answers for a failed metadata parse: an unknown key first, then the keys in the order name,
 * symbol, image, description, website, x, telegram (each key's own checks in their order), so the answer does not
 * depend on the order of the keys sent.
 */
export function metadataIssue(error: z.ZodError): MetadataIssue {
  const rank = (issue: z.core.$ZodIssue) =>
    issue.code === 'unrecognized_keys' ? -1 : CHECK_ORDER.indexOf(String(issue.path[0]));
  const first = [...error.issues].sort((a, b) => rank(a) - rank(b))[0];
  if (!first) throw new Error('metadataIssue: the error has no issue');
  const field = first.code === 'unrecognized_keys' ? (first.keys[0] ?? '') : String(first.path[0] ?? '');
  const params = (first.code === 'custom' ? first.params : undefined) as
    | { code?: MetadataErrorCode; fix?: string }
    | undefined;
  return {
    code: params?.code ?? 'INVALID_METADATA',
    field,
    message: first.message,
    ...(params?.fix === undefined ? {} : { fix: params.fix }),
  };
}

function parseUrl(text: string): URL | null {
  try {
    return new URL(text.trim());
  } catch {
    return null;
  }
}
