import { z } from 'zod';
import { ErrorBodySchema } from '../../../src-shared/schema/common';

/**
 * An API failure as the spec shapes it: `{ error: { code, message, fix } }`. `code` is a plain string, not the
 * document's enum, because the renderer adds its own (UNREACHABLE, BAD_RESPONSE, HTTP_<status>, WRONG_WALLET …).
 */
export interface ApiError {
  code: string;
  message: string;
  fix?: string;
  field?: string;
  detail?: unknown;
}

export class ApiRequestError extends Error {
  constructor(readonly error: ApiError) {
    super(error.message);
    this.name = 'ApiRequestError';
  }
}

/** The spec's error object, its code read as any string: a newer service may answer codes this page does not know. */
const SpecErrorSchema = ErrorBodySchema.shape.error.extend({ code: z.string() });

/** Whether an answer's `error` member has the spec's shape, so its code and fix can be shown as they are. */
export function isApiError(value: unknown): value is ApiError {
  return SpecErrorSchema.safeParse(value).success;
}
