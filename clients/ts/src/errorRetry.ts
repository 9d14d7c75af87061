import type { components } from './schema';

/** The codes the service answers with, as its OpenAPI document lists them. */
export type ServiceErrorCode = components['schemas']['Error']['error']['code'];

/**
 * Whether the same request, sent again unchanged, can succeed later: the `retry` column of the spec's Errors table,
 * which GET /errors serves (clients/ts/test/errors.test.ts holds the two equal). Typed over the document's codes, so
 * a code added to the document fails the type check here until it is classified, rather than being guessed.
 */
export const RETRY_BY_CODE = {
  INVALID_BODY: false,
  INVALID_JSON: false,
  BODY_TOO_LARGE: false,
  INVALID_ADDRESS: false,
  INVALID_HASH: false,
  INVALID_ID: false,
  INVALID_CURSOR: false,
  INVALID_PATH: false,
  INVALID_KIND: false,
  NOT_FOUND: false,
  RATE_LIMITED: true,
  INVALID_AMOUNT: false,
  TOO_MANY_DECIMALS: false,
  AMOUNT_TOO_SMALL: false,
  INVALID_SIDE: false,
  INVALID_EXACT: false,
  INVALID_SLIPPAGE: false,
  POOL_TOO_THIN: false,
  UNKNOWN_TOKEN: true,
  INSUFFICIENT_BALANCE: false,
  SIMULATION_FAILED: true,
  CANNOT_BUILD: false,
  SELF_REFERRAL: false,
  REFERRER_NOT_REGISTERED: false,
  MISSING_IMAGE: false,
  MISSING_MARKET_CAP: false,
  NO_PRICE: false,
  INVALID_SUPPLY: false,
  INVALID_LAUNCH: false,
  INVALID_SHAPE: false,
  SHAPE_BELOW_LADDER: true,
  INVALID_BURN: false,
  CONFLICTING_ROYALTY: false,
  CONFLICTING_METADATA: false,
  INVALID_METADATA_URI: false,
  INVALID_METADATA: false,
  UNSUPPORTED_PAIR: false,
  LAUNCHES_PAUSED: true,
  TOO_MUCH_GAS: false,
  INVALID_IMAGE: false,
  IMAGE_TOO_LARGE: false,
  UNSUPPORTED_IMAGE: false,
  UPLOADS_BUSY: true,
  STORAGE_UNAVAILABLE: true,
  ALREADY_BOUND: false,
  NOT_DEPLOYED: false,
  REFERRAL_ERROR: false,
  INVALID_SIGNATURE: false,
  INVALID_API_KEY: false,
  API_KEY_REVOKED: false,
  API_KEY_REQUIRED: false,
  KEY_NOT_FOUND: false,
  KEY_LIMIT: false,
  KEYS_OFF: false,
  KEYS_UNAVAILABLE: true,
  UNKNOWN_INTENT: false,
  INTENTS_UNAVAILABLE: true,
  ALREADY_SENT: false,
  NOT_SEEN_YET: true,
  WRONG_SENDER: false,
  WRONG_CONTRACT: false,
  NO_SESSION: false,
  SESSION_EXPIRED: false,
  SESSION_WALLET_MISMATCH: false,
  CSRF_REQUIRED: false,
  SMART_WALLET_UNSUPPORTED: false,
  ORIGIN_NOT_ALLOWED: false,
  SESSIONS_UNAVAILABLE: true,
  CHAIN_UNREACHABLE: true,
  FEES_UNREADABLE: true,
  INTERNAL: true,
} as const satisfies Record<ServiceErrorCode, boolean>;

/** The wait the spec means by "after waiting a few seconds", and what the service sends as Retry-After by default. */
export const DEFAULT_RETRY_AFTER_MS = 5_000;

/**
 * Milliseconds a Retry-After header asks for: delay-seconds or an HTTP date. Null when absent or unreadable.
 *
 * @example retryAfterMs('12') // 12000
 */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (header === null) return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

export function isServiceErrorCode(code: string): code is ServiceErrorCode {
  return Object.hasOwn(RETRY_BY_CODE, code);
}
