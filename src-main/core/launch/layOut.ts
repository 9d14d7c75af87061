import { getSqrtRatioAtTick } from '../math/tickMath';
import type { InitializedTick, PoolState } from '../swap/poolState';
import { getAmount0Delta, getAmount1Delta } from '../swap/sqrtPriceMath';
import { liquidityForAmount0, liquidityForAmount1 } from './liquidityForAmount';
import type { TickRange } from './shapes';

export interface PlannedPosition extends TickRange {
  liquidity: bigint;
  /** Tokens the pool takes for the position. */
  tokens: bigint;
}

export interface LaunchLayout {
  positions: PlannedPosition[];
  /** What cannot buy one more unit of liquidity: burned by the factory. */
  residue: bigint;
  /** The pool right after the launch, for quoting a first buy. */
  pool: PoolState;
}

/**
 * Lays the supply over the ranges exactly as LaunchFactory does: each range its bps of the supply, the last one all
 * that remains after the pool took what the others cost, so the same liquidity and the same pool come out.
 */
export function layOut(
  supplyWei: bigint,
  ranges: readonly TickRange[],
  opening: { tick: number; sqrtPriceX96: bigint },
  tokenIs0: boolean,
  fee: number,
  tickSpacing: number,
): LaunchLayout {
  let left = supplyWei;
  const positions = ranges.map((range, i) => {
    const last = i === ranges.length - 1;
    const amount = last ? left : (supplyWei * BigInt(range.bps)) / 10_000n;
    const sqrtA = getSqrtRatioAtTick(range.tickLower);
    const sqrtB = getSqrtRatioAtTick(range.tickUpper);
    const liquidity = tokenIs0 ? liquidityForAmount0(sqrtA, sqrtB, amount) : liquidityForAmount1(sqrtA, sqrtB, amount);
    // The pool rounds what it takes up, as its mint does for the side it is owed.
    const tokens =
      liquidity === 0n
        ? 0n
        : tokenIs0
          ? getAmount0Delta(sqrtA, sqrtB, liquidity, true)
          : getAmount1Delta(sqrtA, sqrtB, liquidity, true);
    left -= tokens;
    return { ...range, liquidity, tokens };
  });
  const net = new Map<number, bigint>();
  let active = 0n;
  for (const p of positions) {
    if (p.liquidity === 0n) continue;
    net.set(p.tickLower, (net.get(p.tickLower) ?? 0n) + p.liquidity);
    net.set(p.tickUpper, (net.get(p.tickUpper) ?? 0n) - p.liquidity);
    if (p.tickLower <= opening.tick && opening.tick < p.tickUpper) active += p.liquidity;
  }
  // A tick where one range ends and the next begins may net to zero, but the pool still has it initialized, and a
  // swap still stops there: keep it.
  const ticks: InitializedTick[] = [...net.entries()]
    .map(([index, liquidityNet]) => ({ index, liquidityNet }))
    .sort((a, b) => a.index - b.index);
  return {
    positions,
    residue: left,
    pool: { sqrtPriceX96: opening.sqrtPriceX96, tick: opening.tick, liquidity: active, fee, tickSpacing, ticks },
  };
}
