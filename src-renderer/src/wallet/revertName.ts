import { type Abi, decodeErrorResult, type Hex, isHex } from 'viem';
import {
  allowanceTransferAbi,
  launchFactoryAbi,
  launchTokenAbi,
  referralVaultAbi,
  tradeRouterAbi,
} from '../../../src-shared/generated/abis';

/** Every custom error the service's contracts (and Permit2, which a trade calls) may revert with. */
const ERRORS: Abi = [
  ...launchFactoryAbi,
  ...tradeRouterAbi,
  ...referralVaultAbi,
  ...launchTokenAbi,
  ...allowanceTransferAbi,
].filter((item) => item.type === 'error');

/** How deep a provider's refusal is searched for its revert data (wallets nest it one or two levels down). */
const MAX_DEPTH = 4;

/**
 * The contract error a revert's data names (`PoolOccupied`, `LimitNotMet`, `Error` for a require's message); null for
 * a revert without data or with data none of the service's contracts would revert with.
 *
 * @example revertNameOf(encodeErrorResult({ abi: launchFactoryAbi, errorName: 'PoolOccupied', args: [pool] })) // 'PoolOccupied'
 */
export function revertNameOf(data: Hex): string | null {
  if (data.length < 10) return null;
  try {
    return decodeErrorResult({ abi: ERRORS, data }).errorName;
  } catch {
    return null;
  }
}

/**
 * The revert data in an EIP-1193 provider's refusal of an `eth_call`: at `data` (EIP-1474), or further in where
 * wallets wrap the node's answer (`data.data`, `data.originalError.data`, `cause`, `error`). Undefined when there is
 * none.
 */
export function revertDataOf(refusal: unknown, depth = 0): Hex | undefined {
  if (depth > MAX_DEPTH || typeof refusal !== 'object' || refusal === null) return undefined;
  const { data } = refusal as { data?: unknown };
  if (typeof data === 'string' && isHex(data)) return data;
  for (const key of ['data', 'originalError', 'cause', 'error'] as const) {
    const found = revertDataOf((refusal as Record<string, unknown>)[key], depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}
