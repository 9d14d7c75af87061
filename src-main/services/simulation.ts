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

/** Estimates kept for each contract and function; the largest of them is the hint. */
const HINTS_KEPT = 8;
/**
 * How long an estimate counts: builds that go through at the hint teach it nothing, so without an age limit one
 * unusually heavy trade (many ticks crossed) would set every later limit. After this an estimate is made again.
 */
const HINT_MAX_AGE_MS = 5 * 60_000;

/**
 * The gas a trade's function needed lately, so a build can be run once at a limit instead of searched for one. A
 * node's eth_estimateGas runs the transaction many times over (the embedded EVM about ten: 11-14 ms of a buy's build
 * at BSC's cadence); one eth_call at the most a like build needed proves that this build needs no more, in the same
 * state, in one run, and the margin goes on top as it does on an estimate. Only for calls whose every sub-call's
 * failure reverts the whole (the router's trades: no try/catch on their path), where "the call went through with
 * this much gas" means "the transaction does".
 */
export class GasHints {
  private readonly needed = new Map<string, { estimate: bigint; at: number }[]>();

  constructor(private readonly now: () => number = Date.now) {}

  /** The largest recent estimate for this call's function, or undefined when it has none. */
  hint(tx: Pick<UnsignedTx, 'to' | 'data'>): bigint | undefined {
    const key = keyOf(tx);
    const since = this.now() - HINT_MAX_AGE_MS;
    const kept = this.needed.get(key)?.filter((entry) => entry.at >= since);
    if (!kept?.length) {
      this.needed.delete(key);
      return undefined;
    }
    this.needed.set(key, kept);
    return kept.reduce((most, entry) => (entry.estimate > most ? entry.estimate : most), 0n);
  }

  /** Keeps what an estimate found for this call's function (the newest HINTS_KEPT of them). */
  learn(tx: Pick<UnsignedTx, 'to' | 'data'>, estimate: bigint): void {
    const key = keyOf(tx);
    const kept = this.needed.get(key) ?? [];
    kept.push({ estimate, at: this.now() });
    if (kept.length > HINTS_KEPT) kept.shift();
    this.needed.set(key, kept);
  }
}

const keyOf = (tx: Pick<UnsignedTx, 'to' | 'data'>) => `${tx.to.toLowerCase()}:${tx.data.slice(0, 10)}`;

/** Where a simulation may take its gas limit from a hint, and the most gas the wallet can pay for. */
export interface GasHinting {
  hints: GasHints;
  /** The largest limit the wallet's BNB covers at the build's price: a larger hint is not used, it is estimated. */
  affordable: bigint;
}

/**
 * Runs a built transaction from the wallet at the latest block and returns its gas limit with the margin. With
 * hints that know the call's function, one eth_call with the hinted gas runs it: if it goes through, the hint with
 * the margin is the answer (unless the wallet could not pay for that much gas, when a lower estimate might do).
 * Otherwise (no hint yet, a revert, or too little gas for this trade) one eth_estimateGas at the latest block (not
 * the pending one, which a node may build a block for first) runs it, and teaches the hints; only when that fails
 * does an eth_call run it again, for the revert's data, which nodes report more reliably there. A revert is refused
 * as SIMULATION_FAILED with the decoded reason in `detail.revert`; a chain that does not answer is CHAIN_UNREACHABLE.
 */
export async function simulateFrom(
  chain: ChainContext,
  wallet: `0x${string}`,
  tx: UnsignedTx,
  value: bigint,
  what: string,
  hinting?: GasHinting,
): Promise<bigint> {
  const { client } = chain;
  const run = { account: wallet, to: tx.to, data: tx.data, value, blockTag: 'latest' } as const;
  const hints = hinting?.hints;
  const hinted = hints?.hint(tx);
  if (hinted !== undefined && withMargin(hinted) <= (hinting?.affordable ?? 0n)) {
    const proven = await client.call({ ...run, gas: hinted }).then(
      () => true,
      () => false,
    );
    if (proven) return withMargin(hinted);
  }
  try {
    try {
      const estimate = await client.estimateGas(run);
      hints?.learn(tx, estimate);
      return withMargin(estimate);
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
