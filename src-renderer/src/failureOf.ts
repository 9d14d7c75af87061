import { type ApiError, ApiRequestError } from './api/apiRequestError';
import { AppChannelRequestError } from './wallet/appChannel';

/**
 * Any refusal the pages meet, the API's (with its `field` and `detail`) or main's, as one error object for an
 * ErrorPanel; anything else is INTERNAL with its message.
 */
export function failureOf(cause: unknown): ApiError {
  if (cause instanceof ApiRequestError) return cause.error;
  if (cause instanceof AppChannelRequestError) {
    return { code: cause.code, message: cause.message, ...(cause.fix ? { fix: cause.fix } : {}) };
  }
  return { code: 'INTERNAL', message: cause instanceof Error ? cause.message : String(cause) };
}
