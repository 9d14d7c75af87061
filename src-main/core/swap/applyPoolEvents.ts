/**
 * Keeps a PoolState current from the pool's own events instead of reading it again: a Swap says where the price,
 * tick and liquidity ended; a Mint or Burn changes two ticks and, when the position is in range, the liquidity, as
 * the pool's _modifyPosition does in storage.
 */

import { addDelta } from './liquidityMath';
import type { InitializedTick, PoolState } from './poolState';

/** An initialized tick with its liquidityGross: the pool keeps a tick initialized exactly while its gross is > 0. */
export interface TrackedTick extends InitializedTick {
  /** uint128: the liquidity of every position bounded at this tick, whichever side. */
  liquidityGross: bigint;
}

/** A PoolState whose ticks carry their gross, so that mints and burns can be applied to it. */
export interface TrackedPoolState extends PoolState {
  ticks: readonly TrackedTick[];
}

/** What a pool's Swap, Mint and Burn events tell about its state. */
export type PoolEvent =
  | { kind: 'swap'; sqrtPriceX96: bigint; tick: number; liquidity: bigint }
  | { kind: 'mint' | 'burn'; tickLower: number; tickUpper: number; amount: bigint };

/**
 * The state after `events`, applied in the order the pool emitted them. `pool` is left as it is (a quote may be
 * reading it). Throws a RangeError for an event the pool could not have emitted from this state (a burn of more
 * than a tick holds, liquidity leaving uint128): the state was wrong, and the caller should read the pool again.
 *
 * @example
 * const next = applyPoolEvents(pool, [{ kind: 'mint', tickLower: -600, tickUpper: 600, amount: 10n ** 18n }]);
 */
export function applyPoolEvents(pool: TrackedPoolState, events: readonly PoolEvent[]): TrackedPoolState {
  let { sqrtPriceX96, tick, liquidity } = pool;
  const ticks = [...pool.ticks];
  for (const event of events) {
    if (event.kind === 'swap') {
      ({ sqrtPriceX96, tick, liquidity } = event);
      continue;
    }
    // A burn of nothing only settles the position's fees.
    if (event.amount === 0n) continue;
    const { tickLower, tickUpper } = event;
    if (tickLower >= tickUpper) throw new RangeError(`TLU: a position from tick ${tickLower} to ${tickUpper}`);
    const delta = event.kind === 'mint' ? event.amount : -event.amount;
    updateTick(ticks, tickLower, delta, false);
    updateTick(ticks, tickUpper, delta, true);
    if (tickLower <= tick && tick < tickUpper) liquidity = addDelta(liquidity, delta);
  }
  return { ...pool, sqrtPriceX96, tick, liquidity, ticks };
}

/**
 * Tick.update on a sorted list: the gross moves by `delta`, the net by `delta` at a lower bound and by `-delta` at an
 * upper one; a tick whose gross reaches zero is cleared, one that leaves zero is inserted in order.
 */
function updateTick(ticks: TrackedTick[], index: number, delta: bigint, upper: boolean): void {
  const at = lowerBound(ticks, index);
  const found = ticks[at]?.index === index ? ticks[at] : undefined;
  const liquidityGross = addDelta(found?.liquidityGross ?? 0n, delta);
  const liquidityNet = (found?.liquidityNet ?? 0n) + (upper ? -delta : delta);
  if (liquidityGross === 0n) {
    // No position is bounded here any more, so the net has come back to zero too, unless the state was wrong.
    if (liquidityNet !== 0n) throw new RangeError(`tick ${index} has no liquidity left but a net of ${liquidityNet}`);
    ticks.splice(at, 1);
  } else if (found) {
    ticks[at] = { index, liquidityNet, liquidityGross };
  } else {
    ticks.splice(at, 0, { index, liquidityNet, liquidityGross });
  }
}

/** Index of the first tick at or above `index` (ticks.length if none). */
function lowerBound(ticks: readonly TrackedTick[], index: number): number {
  let low = 0;
  let high = ticks.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    // biome-ignore lint/style/noNonNullAssertion: mid is inside the array by the loop bound
    if (ticks[mid]!.index < index) low = mid + 1;
    else high = mid;
  }
  return low;
}
