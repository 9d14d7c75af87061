import { BaseError, decodeErrorResult, type Hex, RawContractError } from 'viem';
import type { UnsignedTx } from '../../src-shared/schema/unsignedTx';
import type { ChainContext } from '../chain/connectChain';
import { IAllowanceTransfer, LaunchFactory, LaunchToken, TradeRouter } from '../chain/generated/contracts';
import { ApiError } from '../core/errors';

/** Added to the simulated gas: state can move between the build and the send (a tick crossed, a first write). */
export const GAS_MARGIN_PCT = 20n;

/** Every error a trade or a launch can revert with, to decode the reason of a failed simulation. */
const REVERT_ABI = [...TradeRouter.abi, ...LaunchFactory.abi, ...IAllowanceTransfer.abi, ...LaunchToken.abi];

export function withMargin(gas: bigint): bigint {
  return (gas * (100n + GAS_MARGIN_PCT)) / 100n;
}

/**
 * Runs a built transaction from the wallet at the latest block and returns its gas limit with the margin. One
 * eth_estimateGas at the latest block (not the pending one, which a node may build a block for first) runs it; only
 * when that fails does an eth_call run it again, for the revert's data, which nodes report more reliably there. A
 * revert is refused as SIMULATION_FAILED with the decoded reason in `detail.revert`; a chain that does not answer is
 * CHAIN_UNREACHABLE.
 */
export async function simulateFrom(
  chain: ChainContext,
  wallet: `0x${string}`,
  tx: UnsignedTx,
  value: bigint,
  what: string,
): Promise<bigint> {
  const { client } = chain;
  const run = { account: wallet, to: tx.to, data: tx.data, value, blockTag: 'latest' } as const;
  try {
    try {
      return withMargin(await client.estimateGas(run));
    } catch (estimateFailed) {
      await client.call(run);
      // The call went through where the estimate did not: the estimate's own failure is the answer.
      throw estimateFailed;
    }
  } catch (cause) {
    const revert = revertOf(cause);
    if (revert === undefined)
      throw new ApiError('CHAIN_UNREACHABLE', 'the simulation could not reach the chain', { cause });
    if (revert.name === 'AlreadyBound') {
      // The router keeps the binding: a bound wallet naming another referrer is the spec's ALREADY_BOUND, however
      // the build got that far (a binding made since the build read it, say).
      const boundTo = revert.args[0];
      throw new ApiError('ALREADY_BOUND', `${wallet} is bound to referrer ${boundTo} for life`, {
        field: 'referrer',
        fix: `Name ${boundTo} as the referrer, or send referrer null.`,
        detail: { boundTo, revert },
        cause,
      });
    }
    throw new ApiError('SIMULATION_FAILED', `${what} would revert: ${revert.name}`, { detail: { revert }, cause });
  }
}

export interface DecodedRevert {
  name: string;
  args: string[];
  data: Hex;
}

/** The names a revert gets when no error is decoded from it. */
const NO_REASON = 'reverted without a reason';
const UNKNOWN_ERROR = 'unknown error';

/**
 * The error a contract reverted with, by name (`PoolOccupied`, `LimitNotMet`, `Error` for a require's message): what
 * code may act on. Null for a revert without data, or with data none of the ABIs here decodes.
 *
 * @example contractErrorOf(revertOfData(data)) // 'PoolOccupied'
 */
export function contractErrorOf(revert: DecodedRevert): string | null {
  return revert.name === NO_REASON || revert.name === UNKNOWN_ERROR ? null : revert.name;
}

/** The revert behind a failed call, decoded with the ABIs of everything a trade touches; undefined if it was no revert. */
export function revertOf(error: unknown): DecodedRevert | undefined {
  if (!(error instanceof BaseError)) return undefined;
  const raw = error.walk(
    (e) =>
      e instanceof RawContractError ||
      (typeof (e as { data?: unknown }).data === 'string' && (e as { code?: number }).code === 3),
  );
  const data = (raw as { data?: Hex | { data?: Hex } } | null)?.data;
  const hex = typeof data === 'object' ? data?.data : data;
  if (typeof hex !== 'string') {
    return /revert/i.test(error.message) ? { name: NO_REASON, args: [], data: '0x' } : undefined;
  }
  return revertOfData(hex);
}

/** A revert's data decoded with the ABIs of everything a trade or launch touches. */
export function revertOfData(hex: Hex): DecodedRevert {
  try {
    const decoded = decodeErrorResult({ abi: REVERT_ABI, data: hex });
    return { name: decoded.errorName, args: (decoded.args ?? []).map(String), data: hex };
  } catch {
    return { name: hex === '0x' ? NO_REASON : UNKNOWN_ERROR, args: [], data: hex };
  }
}
