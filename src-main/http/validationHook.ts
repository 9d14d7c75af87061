import type { Hook } from '@hono/zod-openapi';
import type { ZodError, ZodType, z } from 'zod';
import type { Refusal } from '../../src-shared/schema/requestRules';
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

type Issue = ZodError['issues'][number];

/** The refusal an issue carries (see src-shared/schema/requestRules.ts), if it is one. */
function refusalOf(issue: Issue): Partial<Refusal> | undefined {
  return issue.code === 'custom' && typeof issue.params?.code === 'string' ? (issue.params as Refusal) : undefined;
}

/**
 * The spec's error for the first rule at fault in a schema validation failure, so a caller never sees a validator's
 * own error format. First is the lowest rank (a refusal's own; 0 for presence and type), then the schema's field order.
 * A refusal answers its code and message word for word; a missing field or a wrong type answers the field's own code
 * (INVALID_SIDE for side...), or INVALID_BODY for a field without one.
 */
export function apiErrorOf(error: ZodError): ApiError {
  const ranked = error.issues.map((issue, order) => ({ issue, order, rank: refusalOf(issue)?.rank ?? 0 }));
  const issue = ranked.sort((a, b) => a.rank - b.rank || a.order - b.order)[0]?.issue;
  const path = issue?.path.map(String).join('.') || undefined;
  const refusal = issue && refusalOf(issue);
  if (issue && refusal?.code) {
    const field = refusal.field ?? path;
    return new ApiError(refusal.code as ErrorCode, issue.message, {
      ...(field ? { field } : {}),
      ...(refusal.fix ? { fix: refusal.fix } : {}),
    });
  }
  if (issue?.code === 'unrecognized_keys') {
    // A strict object read without closedBody's check first: still the field, named.
    const field = [path, issue.keys[0]].filter(Boolean).join('.');
    return new ApiError('INVALID_BODY', `${field} is not a field of this request`, {
      field,
      fix: `Leave ${field} out; send only the fields the request takes.`,
    });
  }
  const code = (path && FIELD_CODES[path.split('.')[0] ?? '']) || 'INVALID_BODY';
  const what = issue?.code === 'invalid_type' && issue.message.includes('undefined') ? 'is missing' : 'is not valid';
  return new ApiError(code, `${path ?? 'the request'} ${what}${issue ? `: ${issue.message}` : ''}`, {
    ...(path ? { field: path } : {}),
  });
}

/**
 * Reads a request's fields with a shared schema, throwing the spec's error for the first one at fault: for what a
 * route's validator does not see, such as the stored body of a prepared request when it is built.
 *
 * @example const body = readWith(TradeBodySchema, intent.request) // { wallet: '0x…', exact: 'in', slippageBps: 50, … }
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
