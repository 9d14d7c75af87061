import { ApiError, type ErrorCode } from '../core/errors';

/**
 * Runs a step on the database, turning a storage failure (locked, full, gone) into the feature's `*_UNAVAILABLE`
 * code; our own ApiErrors pass through unchanged. The storage twin of `chainRead`.
 *
 * @example storageStep('KEYS_UNAVAILABLE', 'API keys could not be read or written', () => statement.get(id))
 */
export function storageStep<T>(code: ErrorCode, message: string, work: () => T): T {
  try {
    return work();
  } catch (cause) {
    if (cause instanceof ApiError) throw cause;
    throw new ApiError(code, message, { cause });
  }
}
