import {
  DEFAULT_RETRY_AFTER_MS,
  isServiceErrorCode,
  RETRY_BY_CODE,
  retryAfterMs,
  type ServiceErrorCode,
} from './errorRetry';

/**
 * The client's own codes, for failures that are not an error answer of the service:
 * - UNREACHABLE: no answer at all (service not running, connection refused or dropped);
 * - BAD_RESPONSE: an answer that is not what the API sends (not JSON, not an event stream);
 * - HTTP_<status>: an error status whose body is not the spec's Error object (a proxy, another server);
 * - WRONG_CHAIN, WRONG_WALLET: sendBuild was given a wallet client on another chain or account than the build's;
 * - BUILD_MISMATCH: a build is not what was asked (another contract, function, token, amount, limit, value,
 *   recipient, referrer or chain): refused before anything was signed, `field` names what differs;
 * - SEND_FAILED: the wallet or its node refused to send a transaction (the cause is viem's error);
 * - NONCE_CONFLICT: another sender on the same key kept taking the nonces sendBuild counted on;
 * - REVERTED: a transaction sendBuild sent was mined and reverted;
 * - TIMEOUT: waitForIntent gave up before the request reached the state waited for.
 */
export type ClientErrorCode =
  | 'UNREACHABLE'
  | 'BAD_RESPONSE'
  | `HTTP_${number}`
  | 'WRONG_CHAIN'
  | 'WRONG_WALLET'
  | 'BUILD_MISMATCH'
  | 'SEND_FAILED'
  | 'NONCE_CONFLICT'
  | 'REVERTED'
  | 'TIMEOUT';

/**
 * Every code a CompanionError carries. A newer service may answer a code this version's document does not list: it
 * is passed on as it is (and is retryable only when the answer carried Retry-After, as the service sends on exactly
 * its retryable errors).
 */
export type CompanionErrorCode = ServiceErrorCode | ClientErrorCode;

/** Whether sending the same request again can succeed, and after how long; false when it cannot. */
export type Retry = false | { afterMs: number };

export interface CompanionErrorFields {
  /** The HTTP status of the answer; null for the client's own errors that had none (UNREACHABLE, REVERTED …). */
  status: number | null;
  code: CompanionErrorCode;
  message: string;
  /** What to do about it, as the service words it. */
  fix?: string;
  /** The request field that was wrong. */
  field?: string;
  /** Extra facts: `revert` for SIMULATION_FAILED, `tx` for ALREADY_SENT, `receipt` for REVERTED. */
  detail?: unknown;
  retry: Retry;
}

/**
 * The one error the client throws: the spec's Error object as a value, with its HTTP status and whether a retry can
 * help. Act on `code`, never on the message.
 *
 * @example catch (e) { if (e instanceof CompanionError && e.retry) await sleep(e.retry.afterMs); }
 */
export class CompanionError extends Error {
  readonly status: number | null;
  readonly code: CompanionErrorCode;
  readonly fix: string | undefined;
  readonly field: string | undefined;
  readonly detail: unknown;
  readonly retry: Retry;

  constructor(fields: CompanionErrorFields, options: { cause?: unknown } = {}) {
    super(fields.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CompanionError';
    this.status = fields.status;
    this.code = fields.code;
    this.fix = fields.fix;
    this.field = fields.field;
    this.detail = fields.detail;
    this.retry = fields.retry;
  }
}

interface SpecError {
  code: string;
  message: string;
  fix?: string;
  field?: string;
  detail?: unknown;
}

function isSpecError(value: unknown): value is SpecError {
  if (typeof value !== 'object' || value === null) return false;
  const error = value as Record<string, unknown>;
  return (
    typeof error.code === 'string' &&
    typeof error.message === 'string' &&
    (error.fix === undefined || typeof error.fix === 'string') &&
    (error.field === undefined || typeof error.field === 'string')
  );
}

/**
 * Whether a code answered with this Retry-After can succeed when sent again: the spec's retry column for its codes,
 * waiting what Retry-After asks (5 s when it says nothing); for a code the document does not list, the header alone.
 *
 * @example retryOf('RATE_LIMITED', '12') // { afterMs: 12000 }
 */
export function retryOf(code: string, retryAfter: string | null): Retry {
  const asked = retryAfterMs(retryAfter);
  const retryable = isServiceErrorCode(code) ? RETRY_BY_CODE[code] : asked !== null;
  return retryable ? { afterMs: asked ?? DEFAULT_RETRY_AFTER_MS } : false;
}

/**
 * The CompanionError of an error answer: its body's spec Error object (`body` already parsed, as openapi-fetch
 * gives it), or HTTP_<status> when the body is something else.
 */
export function errorOfAnswer(response: Response, body: unknown): CompanionError {
  const spec = typeof body === 'object' && body !== null ? (body as { error?: unknown }).error : undefined;
  const retryAfter = response.headers.get('retry-after');
  if (isSpecError(spec)) {
    return new CompanionError({
      status: response.status,
      code: spec.code as CompanionErrorCode,
      message: spec.message,
      ...(spec.fix === undefined ? {} : { fix: spec.fix }),
      ...(spec.field === undefined ? {} : { field: spec.field }),
      ...(spec.detail === undefined ? {} : { detail: spec.detail }),
      retry: retryOf(spec.code, retryAfter),
    });
  }
  return new CompanionError({
    status: response.status,
    code: `HTTP_${response.status}`,
    message: `The service answered ${response.status} ${response.statusText} without the API's error object.`,
    retry: retryOf(`HTTP_${response.status}`, retryAfter),
  });
}

/** How long to wait before trying an unreachable service again. */
const UNREACHABLE_RETRY_MS = 1_000;

/** The CompanionError for a request that got no answer at all (fetch rejected). */
export function unreachable(url: string, cause: unknown): CompanionError {
  return new CompanionError(
    {
      status: null,
      code: 'UNREACHABLE',
      message: `Could not reach the service at ${url}.`,
      fix: 'Check that the companion service is running and the base URL is right, then retry.',
      retry: { afterMs: UNREACHABLE_RETRY_MS },
    },
    { cause },
  );
}
