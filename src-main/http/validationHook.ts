import type { Hook } from '@hono/zod-openapi';
import type { ZodError, ZodType, z } from 'zod';
import { ApiError, type ErrorCode } from '../core/errors';

/** The spec's code for a request field that is missing or of the wrong type, by field name. */
const FIELD_CODES: Record<string, ErrorCode> = {
  token: 'INVALID_ADDRESS',
  wallet: 'INVALID_ADDRESS',
  referrer: 'INVALID_ADDRESS',
  address: 'INVALID_ADDRESS',
  side: 'INVALID_SIDE',
  exact: 'INVALID_EXACT',
  amount: 'INVALID_AMOUNT',
  slippageBps: 'INVALID_SLIPPAGE',
  after: 'INVALID_CURSOR',
  path: 'INVALID_PATH',
};

/**
 * The spec's error for the first field at fault in a schema validation failure, so a caller never sees a validator's
 * own error format: the field's own code (INVALID_SIDE for side...), or INVALID_BODY for a field without one.
 */
export function apiErrorOf(error: ZodError): ApiError {
  const issue = error.issues[0];
  const field = issue?.path.map(String).join('.') || undefined;
  const code = (field && FIELD_CODES[field.split('.')[0] ?? '']) || 'INVALID_BODY';
  const what = issue?.code === 'invalid_type' && issue.message.includes('undefined') ? 'is missing' : 'is not valid';
  return new ApiError(code, `${field ?? 'the request'} ${what}${issue ? `: ${issue.message}` : ''}`, {
    ...(field ? { field } : {}),
  });
}

/**
 * Reads a request's fields with a shared schema, throwing the spec's error for the first one at fault.
 *
 * @example const terms = readWith(TradeTermsSchema, { side: 'buy' }) // { side: 'buy', exact: 'in', slippageBps: 50 }
 */
export function readWith<S extends ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw apiErrorOf(parsed.error);
  return parsed.data;
}

/** Turns a route's request validation failure into the spec's error (see apiErrorOf). */
export const validationHook: Hook<unknown, never, string, unknown> = (result) => {
  if (result.success) return;
  throw apiErrorOf(result.error);
};
