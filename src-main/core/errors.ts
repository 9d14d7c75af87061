/**
 * The one error table of the API. `GET /errors` is produced from it and every error the code
 * throws takes its status, meaning and retry flag from it, so the two can never disagree.
 * Codes, statuses and retry flags are the spec's (`spec/api-v1.md`, section Errors) and never change.
 */

import { ERROR_CODES, type ErrorCode } from '../../src-shared/schema/errorCodes';
import { ServiceError } from './serviceError';

export interface ErrorEntry {
  readonly status: number;
  readonly retry: boolean;
  /** What the code means, as the spec says it. */
  readonly meaning: string;
  /** What usually causes it, when that is more than the meaning says. */
  readonly cause?: string;
  /** What the caller should do. */
  readonly fix: string;
}

export const ERRORS = {
  INVALID_BODY: {
    status: 400,
    retry: false,
    meaning: 'body is not a JSON object',
    cause: 'Also a body sent with another Content-Type than application/json: no other is read as JSON.',
    fix: 'Send a JSON object, for example {"wallet":"0x…"}, as the request body.',
  },
  INVALID_JSON: {
    status: 400,
    retry: false,
    meaning: 'body is not valid JSON',
    fix: 'Send a body that parses as JSON; check quotes, commas and brackets.',
  },
  BODY_TOO_LARGE: {
    status: 413,
    retry: false,
    meaning: 'request body over the limit',
    cause: 'JSON bodies are limited to 64 KiB (an image upload over 5 MiB answers IMAGE_TOO_LARGE).',
    fix: 'Send a smaller body.',
  },
  INVALID_ADDRESS: {
    status: 400,
    retry: false,
    meaning: 'a field that must be a 0x address is not one; `field` names it',
    fix: 'Send 0x followed by 40 hexadecimal digits.',
  },
  INVALID_HASH: {
    status: 400,
    retry: false,
    meaning: 'not a transaction hash',
    fix: 'Send 0x followed by 64 hexadecimal digits.',
  },
  INVALID_ID: { status: 400, retry: false, meaning: 'not a key id', fix: 'Use an id from GET /keys.' },
  INVALID_CURSOR: {
    status: 400,
    retry: false,
    meaning: '`after` is not a block number',
    fix: 'Send the `next` of a previous answer unchanged, or leave `after` out.',
  },
  INVALID_PATH: {
    status: 400,
    retry: false,
    meaning: 'referral link path is not a page of the site',
    fix: 'Send a path of the site that starts with /, such as /launch.',
  },
  INVALID_KIND: {
    status: 400,
    retry: false,
    meaning: 'intent kind must be prepare_buy, prepare_sell or prepare_launch',
    fix: 'Send kind prepare_buy, prepare_sell or prepare_launch.',
  },
  NOT_FOUND: {
    status: 404,
    retry: false,
    meaning: 'no such endpoint',
    fix: 'Check the path and method against GET /api/v1/openapi.json.',
  },
  RATE_LIMITED: {
    status: 429,
    retry: true,
    meaning: 'too many requests from this address in the last minute',
    cause: 'Limits are per network address; an API key adds no allowance. Challenges are limited too (30 a minute).',
    fix: 'Wait the seconds given in the Retry-After header, then send again.',
  },
  INVALID_AMOUNT: {
    status: 400,
    retry: false,
    meaning: 'amount not a positive decimal, or both/neither of amount and percent sent',
    fix: 'Send a positive decimal string in whole units, such as "0.05".',
  },
  TOO_MANY_DECIMALS: {
    status: 400,
    retry: false,
    meaning: 'more decimal places than the currency has',
    fix: "Round the amount to the currency's decimals.",
  },
  AMOUNT_TOO_SMALL: {
    status: 422,
    retry: false,
    meaning: 'too small to get anything after the site fee, or out of the pool',
    fix: 'Send a larger amount.',
  },
  INVALID_SIDE: { status: 400, retry: false, meaning: 'side must be buy or sell', fix: 'Send side buy or sell.' },
  INVALID_EXACT: {
    status: 400,
    retry: false,
    meaning: 'exact must be in or out',
    fix: 'Send exact in or out, or leave it out.',
  },
  INVALID_SLIPPAGE: {
    status: 400,
    retry: false,
    meaning: 'trades: slippageBps 1 to 5000; launch first buy: slippagePct 0.5 to 50',
    fix: 'Send slippageBps as an integer from 1 to 5000 (or slippagePct from 0.5 to 50 for a launch).',
  },
  POOL_TOO_THIN: {
    status: 422,
    retry: false,
    meaning: 'pool cannot fill that size in one trade',
    fix: 'Trade a smaller amount, or split it into several trades.',
  },
  UNKNOWN_TOKEN: {
    status: 400,
    retry: true,
    meaning: 'address is not a launched token (a just-launched token appears once its block is confirmed)',
    fix: 'Check the address; for a token launched seconds ago, wait for its block to be confirmed and send again.',
  },
  INSUFFICIENT_BALANCE: {
    status: 422,
    retry: false,
    meaning: 'wallet cannot pay the amount, the gas, or both',
    fix: 'Fund the wallet or send a smaller amount; the message says which is short.',
  },
  SIMULATION_FAILED: {
    status: 422,
    retry: true,
    meaning: 'transaction would revert; not returned; `detail.revert` gives the reason',
    fix: 'Read detail.revert; build again after the chain has moved, or change the inputs.',
  },
  CANNOT_BUILD: {
    status: 400,
    retry: false,
    meaning: 'trade could not be encoded with these inputs',
    fix: 'Change the inputs; the message says which one could not be used.',
  },
  SELF_REFERRAL: {
    status: 400,
    retry: false,
    meaning: 'wallet cannot be its own referrer',
    fix: 'Send another referrer, or null for none.',
  },
  REFERRER_NOT_REGISTERED: {
    status: 400,
    retry: false,
    meaning: 'referrer neither registered nor a creator',
    fix: 'Send a registered referrer or a token creator, or null for none.',
  },
  MISSING_IMAGE: {
    status: 400,
    retry: false,
    meaning: 'a launch needs a logo (image link or a metadataURI whose metadata has an image)',
    fix: 'Send image (an https:// link or a URL from POST /media/image) or a metadataURI whose metadata has an image.',
  },
  MISSING_MARKET_CAP: {
    status: 400,
    retry: false,
    meaning: 'launch needs marketCapUsd or marketCapPair',
    fix: 'Send marketCapUsd or marketCapPair.',
  },
  NO_PRICE: {
    status: 503,
    retry: false,
    meaning: 'pair has no live dollar price; send marketCapPair',
    fix: 'Send marketCapPair instead of marketCapUsd.',
  },
  INVALID_SUPPLY: {
    status: 400,
    retry: false,
    meaning: 'supply outside 1 to 1,000,000,000,000 whole tokens',
    fix: 'Send a whole number of tokens from 1 to 1000000000000, or leave supply out.',
  },
  INVALID_LAUNCH: {
    status: 400,
    retry: false,
    meaning: 'a launch rule is broken (name over 64 bytes, split not adding to 100, same wallet twice, and similar)',
    fix: 'Correct the field named in `field`.',
  },
  INVALID_SHAPE: {
    status: 400,
    retry: false,
    meaning: 'shape not a preset or a valid list of 1 to 4 ranges',
    fix: 'Send flat, stepped or steep, or 1 to 4 ranges whose bps add to 10000.',
  },
  SHAPE_BELOW_LADDER: {
    status: 422,
    retry: true,
    meaning: 'shape no longer fits; build again, or omit shape',
    fix: 'Build again, or leave shape out.',
  },
  INVALID_BURN: {
    status: 400,
    retry: false,
    meaning: 'burnPct not 0, 1 to 99 (two decimals at most) or 100',
    fix: 'Send burnPct 0, a number from 1 to 99 with at most two decimals, or 100.',
  },
  CONFLICTING_ROYALTY: {
    status: 400,
    retry: false,
    meaning: 'royaltyTo and burnPct above 0 both sent',
    fix: 'Send royaltyTo or a burnPct above 0, not both.',
  },
  CONFLICTING_METADATA: {
    status: 400,
    retry: false,
    meaning: 'metadataURI and the details both sent',
    fix: 'Send metadataURI alone, or the details (image, description, links) without it.',
  },
  INVALID_METADATA_URI: {
    status: 400,
    retry: false,
    meaning: 'not an https:// or ipfs:// link',
    fix: 'Send an https:// or ipfs:// link.',
  },
  INVALID_METADATA: {
    status: 400,
    retry: false,
    meaning: 'details could not be stored as sent',
    fix: 'Check the details; the message says which one could not be stored.',
  },
  UNSUPPORTED_PAIR: {
    status: 400,
    retry: false,
    meaning: 'pair not BNB, a listed symbol, or a readable BEP20 token',
    fix: 'Send BNB, a symbol from GET /settings pairs, or the address of a BEP20 token.',
  },
  LAUNCHES_PAUSED: {
    status: 503,
    retry: true,
    meaning: 'launches paused on the factory',
    fix: 'Wait until launch.paused in GET /settings is false, then send again.',
  },
  TOO_MUCH_GAS: {
    status: 422,
    retry: false,
    meaning: 'launch needs more gas than one transaction may use',
    fix: 'Use fewer shape ranges or fewer first-buy recipients.',
  },
  INVALID_IMAGE: {
    status: 400,
    retry: false,
    meaning: 'image link could not be used',
    fix: 'Send an https:// link that serves the image itself, or upload it with POST /media/image.',
  },
  IMAGE_TOO_LARGE: { status: 413, retry: false, meaning: 'image over 5 MB', fix: 'Send an image of 5 MB or less.' },
  UNSUPPORTED_IMAGE: {
    status: 415,
    retry: false,
    meaning: 'not PNG, JPG, GIF or WebP, or upload body is not the image itself',
    cause: 'Also an upload sent without an image/* Content-Type.',
    fix: 'Send a PNG, JPG, GIF or WebP image as the raw body with its Content-Type.',
  },
  UPLOADS_BUSY: { status: 429, retry: true, meaning: 'uploads busy', fix: 'Wait a few seconds and upload again.' },
  STORAGE_UNAVAILABLE: {
    status: 503,
    retry: true,
    meaning: 'image could not be stored; nothing launched',
    fix: 'Wait a few seconds and send again.',
  },
  ALREADY_BOUND: {
    status: 409,
    retry: false,
    meaning: 'wallet already bound to a referrer, for ever',
    fix: 'Nothing to do: the first binding stays.',
  },
  NOT_DEPLOYED: {
    status: 503,
    retry: false,
    meaning: 'feature not deployed on this network',
    fix: 'Use a network where GET /settings lists the contract.',
  },
  REFERRAL_ERROR: {
    status: 400,
    retry: false,
    meaning: 'referral request refused; message says why',
    fix: 'Follow the message.',
  },
  INVALID_SIGNATURE: {
    status: 401,
    retry: false,
    meaning: 'signature missing, expired or not from that wallet',
    fix: "Get a new challenge and sign its message exactly, with personal_sign, from the challenge's wallet.",
  },
  INVALID_API_KEY: {
    status: 401,
    retry: false,
    meaning: 'x-api-key is not a live key',
    fix: 'Send a live key in x-api-key, or leave the header out.',
  },
  API_KEY_REVOKED: {
    status: 401,
    retry: false,
    meaning: 'key revoked',
    fix: 'Create a new key, or leave the header out.',
  },
  API_KEY_REQUIRED: {
    status: 401,
    retry: false,
    meaning: 'endpoint needs a key',
    fix: 'Send your key in the x-api-key header.',
  },
  KEY_NOT_FOUND: {
    status: 404,
    retry: false,
    meaning: 'no such key on this wallet',
    fix: 'Use an id from GET /keys.',
  },
  KEY_LIMIT: {
    status: 400,
    retry: false,
    meaning: 'wallet holds 10 active keys',
    fix: 'Revoke a key with DELETE /keys/{id}, then create the new one.',
  },
  KEYS_OFF: {
    status: 503,
    retry: false,
    meaning: 'keys switched off on this server',
    fix: 'Use the API without a key, or ask the operator to switch keys on.',
  },
  KEYS_UNAVAILABLE: {
    status: 503,
    retry: true,
    meaning: 'keys could not be read or written',
    fix: 'Wait a few seconds and send again.',
  },
  UNKNOWN_INTENT: {
    status: 404,
    retry: false,
    meaning: 'no such prepared request',
    fix: 'Check the id returned when the request was prepared.',
  },
  INTENTS_UNAVAILABLE: {
    status: 503,
    retry: true,
    meaning: 'prepared request could not be stored or read',
    fix: 'Wait a few seconds and send again.',
  },
  ALREADY_SENT: {
    status: 409,
    retry: false,
    meaning: 'request already signed with another transaction; `detail.tx`',
    cause:
      'Also a reported transaction that already fulfilled another prepared request (`detail.request`): one transaction fulfils one request.',
    fix: 'Follow the transaction in detail.tx.',
  },
  NOT_SEEN_YET: {
    status: 409,
    retry: true,
    meaning: 'chain has not seen that transaction',
    fix: 'Wait for the transaction to be mined, then report it again.',
  },
  WRONG_SENDER: {
    status: 400,
    retry: false,
    meaning: 'transaction not sent by that wallet',
    fix: "Report a transaction sent from the request's wallet.",
  },
  WRONG_CONTRACT: {
    status: 400,
    retry: false,
    meaning: 'transaction is not a trade or launch of the service',
    cause:
      "Also a trade or launch of the service that is not the one the prepared request asked for: another token, side, exact amount or referrer, a looser limit than the build's, a launch of another token, or a request never built.",
    fix: 'Report the hash of the transaction built for this request.',
  },
  NO_SESSION: { status: 401, retry: false, meaning: 'browser not signed in', fix: 'Sign in first.' },
  SESSION_EXPIRED: {
    status: 401,
    retry: false,
    meaning: 'sign-in older than 30 days',
    fix: 'Sign in again.',
  },
  SESSION_WALLET_MISMATCH: {
    status: 401,
    retry: false,
    meaning: 'signed in as another wallet than the request names',
    fix: 'Sign in with the wallet the request names, or name the signed-in wallet.',
  },
  CSRF_REQUIRED: {
    status: 403,
    retry: false,
    meaning: 'signed-in request without header x-mm-csrf',
    cause: 'Every request carrying the session cookie needs it, reads included.',
    fix: 'Send the header x-mm-csrf: 1.',
  },
  SMART_WALLET_UNSUPPORTED: {
    status: 401,
    retry: false,
    meaning: 'smart-contract wallet signatures cannot be checked',
    fix: 'Sign in with a wallet that has a private key (an EOA).',
  },
  ORIGIN_NOT_ALLOWED: {
    status: 403,
    retry: false,
    meaning: "sign-in asked from a page that is not the service's site",
    cause:
      'Also any request a browser sent for a page of another origin (Sec-Fetch-Site cross-site or same-site, or an ' +
      'Origin that is neither this server nor a browser extension), reads and /rpc included; any write (POST, ' +
      'DELETE) under /api whose Origin is not this server; and a Host that is not a loopback name (DNS rebinding).',
    fix: "Use the service's own pages at its loopback address; a bot sends no Origin header.",
  },
  SESSIONS_UNAVAILABLE: {
    status: 503,
    retry: true,
    meaning: 'sign-in could not be read or written',
    fix: 'Wait a few seconds and send again.',
  },
  CHAIN_UNREACHABLE: {
    status: 503,
    retry: true,
    meaning: 'chain could not be read; nothing sent',
    fix: 'Wait a few seconds and send again; check the RPC URL if it lasts.',
  },
  FEES_UNREADABLE: {
    status: 503,
    retry: true,
    meaning: 'live fee rates could not be read from the chain',
    fix: 'Wait a few seconds and send again; check the RPC URL if it lasts.',
  },
  INTERNAL: {
    status: 500,
    retry: true,
    meaning: 'server-side failure; nothing sent',
    fix: 'Wait a few seconds and send again; if it lasts, report it with the time of the request.',
  },
} as const satisfies Record<ErrorCode, ErrorEntry>;

export { ERROR_CODES, type ErrorCode };

export interface ApiErrorOptions {
  /** Overrides the table's generic fix with one that names the caller's case. */
  fix?: string;
  /** The request field that was wrong. */
  field?: string;
  detail?: unknown;
  /** The underlying failure, kept for logs; never sent to the caller. */
  cause?: unknown;
  /** For retryable errors: how long to wait, sent as Retry-After (default 5 seconds). */
  retryAfterSeconds?: number;
  /** Header fields the answer carries besides Retry-After: a refused request's RateLimit-Policy and RateLimit. */
  headers?: Readonly<Record<string, string>>;
}

/**
 * The one error type that reaches callers. Status and retry come from the table, so a code
 * can only be thrown with the status the spec gives it.
 *
 * @example throw new ApiError('INVALID_ADDRESS', 'wallet is not an address', { field: 'wallet' })
 */
export class ApiError extends ServiceError {
  readonly code: ErrorCode;
  readonly status: number;
  readonly retry: boolean;
  readonly fix: string;
  readonly field?: string;
  readonly detail?: unknown;
  readonly retryAfterSeconds?: number;
  readonly headers?: Readonly<Record<string, string>>;

  constructor(code: ErrorCode, message: string, options: ApiErrorOptions = {}) {
    // Frames are captured only for an error that is logged (see errorAnswer): a failure of ours (5xx), or one with a
    // cause underneath. A refusal of the caller's request is answered and never logged, and V8 capturing its frames
    // was most of what it cost: a rate-limited quote took 8 µs to refuse, 5 of them the stack.
    const frames = Error.stackTraceLimit;
    if (ERRORS[code].status < 500 && options.cause === undefined) Error.stackTraceLimit = 0;
    super(message, { cause: options.cause });
    Error.stackTraceLimit = frames;
    this.name = 'ApiError';
    this.code = code;
    this.status = ERRORS[code].status;
    this.retry = ERRORS[code].retry;
    this.fix = options.fix ?? ERRORS[code].fix;
    if (options.field !== undefined) this.field = options.field;
    if (options.detail !== undefined) this.detail = options.detail;
    if (options.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
    if (options.headers !== undefined) this.headers = options.headers;
  }

  /** The spec's Error object. */
  toBody(): { error: { code: ErrorCode; message: string; fix: string; field?: string; detail?: unknown } } {
    return {
      error: {
        code: this.code,
        message: this.message,
        fix: this.fix,
        ...(this.field === undefined ? {} : { field: this.field }),
        ...(this.detail === undefined ? {} : { detail: this.detail }),
      },
    };
  }
}
