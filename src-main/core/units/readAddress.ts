import { type Address, getAddress, isAddress } from 'viem';
import { ApiError } from '../errors';

/**
 * Reads a request field that must be an address, in any letter case, into its checksummed form; INVALID_ADDRESS
 * naming the field otherwise.
 *
 * @example readAddress('0x000000000022d473030f116ddee9f6b43ac78ba3', 'wallet') // '0x000000000022D473030F116dDEE9F6B43aC78BA3'
 */
export function readAddress(value: unknown, field: string): Address {
  if (typeof value !== 'string' || !isAddress(value, { strict: false })) {
    throw new ApiError('INVALID_ADDRESS', `${field} is not an address: expected 0x followed by 40 hex digits`, {
      field,
    });
  }
  return getAddress(value);
}
