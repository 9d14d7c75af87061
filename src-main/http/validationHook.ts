import type { Hook } from '@hono/zod-openapi';
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
 * Turns a schema validation failure into the spec's error for the first field at fault, so a caller never sees a
 * validator's own error format.
 */
export const validationHook: Hook<unknown, never, string, unknown> = (result) => {
  if (result.success) return;
  const issue = result.error.issues[0];
  const field = issue?.path.map(String).join('.') || undefined;
  const code = (field && FIELD_CODES[field.split('.')[0] ?? '']) || 'INVALID_BODY';
  const what = issue?.code === 'invalid_type' && issue.message.includes('undefined') ? 'is missing' : 'is not valid';
  throw new ApiError(code, `${field ?? 'the request'} ${what}${issue ? `: ${issue.message}` : ''}`, {
    ...(field ? { field } : {}),
  });
};
