import { ApiRequestError } from '../api/getJson';
import { asFailure, type WalletFailure } from '../wallet/walletStore';

/** Any refusal these pages meet (the API's or main's) as one {code, message, fix} to show in an ErrorPanel. */
export function failureOf(cause: unknown): WalletFailure {
  if (cause instanceof ApiRequestError) {
    const { code, message, fix } = cause.error;
    return { code, message, ...(fix ? { fix } : {}) };
  }
  return asFailure(cause);
}
