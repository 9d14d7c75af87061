import { type ApiError, ApiRequestError } from './getJson';

/** Any failure of a request as the spec's error object, so ErrorPanel can show it and tests can read its code. */
export function apiErrorOf(cause: unknown): ApiError {
  if (cause instanceof ApiRequestError) return cause.error;
  return { code: 'INTERNAL', message: cause instanceof Error ? cause.message : String(cause) };
}
