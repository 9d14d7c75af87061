import { ApiError } from '../core/errors';

/**
 * Runs a chain read, turning a transport failure (RPC down, timeout, garbage) into CHAIN_UNREACHABLE. Our own
 * ApiErrors pass through unchanged.
 *
 * @example const fees = await chainRead('the fee rates', () => client.readContract(...))
 */
export async function chainRead<T>(what: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (cause) {
    if (cause instanceof ApiError) throw cause;
    throw new ApiError('CHAIN_UNREACHABLE', `${what} could not be read from the chain`, { cause });
  }
}
