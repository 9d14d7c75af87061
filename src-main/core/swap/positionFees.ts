/*
 * What a concentrated-liquidity position has earned and not yet collected, with the pool's own arithmetic: fee
 * growth inside the range from the global growth and the two ticks' growth outside (all modulo 2^256, as the pool's
 * unchecked Solidity 0.7 counts them), times the position's liquidity over 2^128, rounded down, on top of what the
 * position already owes. A `burn(…, 0)` followed by `collect` takes exactly this much.
 */

const Q128 = 1n << 128n;
const MOD256 = 1n << 256n;
const MOD128 = 1n << 128n;

/** One tick's fee growth on the side away from the current tick, per token (X128). */
export interface TickFeeGrowth {
  feeGrowthOutside0X128: bigint;
  feeGrowthOutside1X128: bigint;
}

/** A position as the pool stores it. */
export interface PositionFeeState {
  liquidity: bigint;
  feeGrowthInside0LastX128: bigint;
  feeGrowthInside1LastX128: bigint;
  tokensOwed0: bigint;
  tokensOwed1: bigint;
}

export interface RangeFeeInputs {
  tickLower: number;
  tickUpper: number;
  /** The pool's current tick (slot0). */
  tick: number;
  feeGrowthGlobal0X128: bigint;
  feeGrowthGlobal1X128: bigint;
  lower: TickFeeGrowth;
  upper: TickFeeGrowth;
  position: PositionFeeState;
}

const sub256 = (a: bigint, b: bigint) => (((a - b) % MOD256) + MOD256) % MOD256;

/**
 * The fees a position would hand over if collected now, in token0 and token1 wei.
 *
 * @example uncollectedFees({ tickLower: -60, tickUpper: 60, tick: 0, feeGrowthGlobal0X128: 2n ** 128n, … }) // { amount0, amount1 }
 */
export function uncollectedFees(input: RangeFeeInputs): { amount0: bigint; amount1: bigint } {
  const { tickLower, tickUpper, tick, lower, upper, position } = input;
  const inside = (global: bigint, lowerOut: bigint, upperOut: bigint) => {
    const below = tick >= tickLower ? lowerOut : sub256(global, lowerOut);
    const above = tick < tickUpper ? upperOut : sub256(global, upperOut);
    return sub256(sub256(global, below), above);
  };
  const inside0 = inside(input.feeGrowthGlobal0X128, lower.feeGrowthOutside0X128, upper.feeGrowthOutside0X128);
  const inside1 = inside(input.feeGrowthGlobal1X128, lower.feeGrowthOutside1X128, upper.feeGrowthOutside1X128);
  // The pool casts the product to uint128 and adds it to what it owes, both wrapping: a position never gets near.
  const owed = (insideNow: bigint, last: bigint, already: bigint) =>
    (already + (((sub256(insideNow, last) * position.liquidity) / Q128) % MOD128)) % MOD128;
  return {
    amount0: owed(inside0, position.feeGrowthInside0LastX128, position.tokensOwed0),
    amount1: owed(inside1, position.feeGrowthInside1LastX128, position.tokensOwed1),
  };
}
