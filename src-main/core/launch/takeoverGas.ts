import { FEE_TIERS } from '../limits';
import { MAX_TICK, MIN_TICK } from '../math/tickMath';

/** Gas the pool's swap spends per word of its tick bitmap crossed with no liquidity (7.1k measured, plus room). */
const GAS_PER_WORD = 7_500n;
/** The swap's own cost around the walk: the call, the price check, the event. */
const GAS_BASE = 50_000n;

/**
 * Gas a launch sets aside, on top of its simulated gas, for taking over its pool should someone create and price it
 * while the launch waits in the mempool: the factory then swaps the price back to the opening price, reading every
 * word of the tick bitmap on the way, and the farthest price a griefer can pick is the other end of the tick range.
 * Unused gas is not paid for; the launch's gas limit stays within one transaction's cap (see `launchGasLimit`).
 *
 * @example takeoverGasAllowance(10000) // 320000n: 36 words of 200-tick spacing cover the whole range
 */
export function takeoverGasAllowance(fee: number): bigint {
  // An unknown tier is allowed the finest spacing's walk, the longest.
  const spacing = FEE_TIERS.find((tier) => tier.bps === fee)?.tickSpacing ?? 1;
  const words = BigInt(Math.ceil((MAX_TICK - MIN_TICK) / (256 * spacing)) + 1);
  return words * GAS_PER_WORD + GAS_BASE;
}

/**
 * A launch's gas limit: its simulated gas with margin, plus the takeover allowance, within the transaction cap. For
 * the 0.01% tier (1-tick spacing) the whole range would take some 52M gas, so there the cap bounds how far from the
 * opening price a front-run pool can still be taken over (about 300,000 ticks).
 */
export function launchGasLimit(simulated: bigint, fee: number, maxTxGas: bigint): bigint {
  const limit = simulated + takeoverGasAllowance(fee);
  return limit < maxTxGas ? limit : maxTxGas;
}
