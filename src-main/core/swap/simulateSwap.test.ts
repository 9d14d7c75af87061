import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getSqrtRatioAtTick, MAX_SQRT_RATIO, MIN_SQRT_RATIO, MIN_TICK } from '../math/tickMath';
import { computeSwapStep } from './computeSwapStep';
import { addDelta } from './liquidityMath';
import type { PoolState } from './poolState';
import { simulateSwap } from './simulateSwap';
import { getAmount0Delta, getAmount1Delta } from './sqrtPriceMath';

const E18 = 10n ** 18n;
const FEE = 2500;
const at = getSqrtRatioAtTick;

/** One position of 1e18 liquidity on ticks -500..500 of the 0.25% tier (spacing 50), the price at tick 0. */
function onePosition(overrides: Partial<PoolState> = {}): PoolState {
  return {
    sqrtPriceX96: at(0),
    tick: 0,
    liquidity: E18,
    fee: FEE,
    tickSpacing: 50,
    ticks: [
      { index: -500, liquidityNet: E18 },
      { index: 500, liquidityNet: -E18 },
    ],
    ...overrides,
  };
}

describe('simulateSwap inside one range', () => {
  it('is one computeSwapStep when the amount runs out before the next tick', () => {
    const pool = onePosition();
    const step = computeSwapStep(pool.sqrtPriceX96, at(-500), E18, 10n ** 15n, FEE);
    expect(simulateSwap(pool, true, 10n ** 15n)).toEqual({
      amountIn: 10n ** 15n,
      amountOut: step.amountOut,
      feeAmount: step.feeAmount,
      sqrtPriceX96After: step.sqrtPriceNextX96,
      tickAfter: -20,
      liquidityAfter: E18,
      ticksCrossed: 0,
      filled: true,
    });
  });

  it('quotes exact output with the fee on top of the input', () => {
    const result = simulateSwap(onePosition(), false, -(10n ** 15n));
    const step = computeSwapStep(at(0), at(500), E18, -(10n ** 15n), FEE);
    expect(result.amountOut).toBe(10n ** 15n);
    expect(result.amountIn).toBe(step.amountIn + step.feeAmount);
    expect(result.feeAmount).toBe(step.feeAmount);
    expect(result.filled).toBe(true);
  });

  it('takes a single wei of input as fee, moving nothing', () => {
    const pool = onePosition({ sqrtPriceX96: at(0) + 12345n });
    const result = simulateSwap(pool, true, 1n);
    expect(result).toMatchObject({ amountIn: 1n, amountOut: 0n, feeAmount: 1n, sqrtPriceX96After: pool.sqrtPriceX96 });
    expect(result.tickAfter).toBe(0);
  });

  it('leaves the tick one below a word edge it sits on, even when the price does not move', () => {
    // Tick 0 starts bitmap word 0: the pool's first step goes to it (no distance, no amount) and steps below it.
    const result = simulateSwap(onePosition(), true, 1n);
    expect(result).toMatchObject({ amountIn: 1n, amountOut: 0n, sqrtPriceX96After: at(0), tickAfter: -1 });
  });
});

describe('simulateSwap across ticks and past the liquidity', () => {
  const inRange1 = getAmount1Delta(at(-500), at(0), E18, false);
  const inRange0 = getAmount0Delta(at(0), at(500), E18, false);

  it('drains the range on exact input and stops at the price limit, unfilled', () => {
    const result = simulateSwap(onePosition(), true, E18);
    expect(result.amountOut).toBe(inRange1);
    expect(result.amountIn).toBe(getAmount0Delta(at(-500), at(0), E18, true) + result.feeAmount);
    expect(result).toMatchObject({
      sqrtPriceX96After: MIN_SQRT_RATIO + 1n,
      tickAfter: MIN_TICK,
      liquidityAfter: 0n,
      ticksCrossed: 1,
      filled: false,
    });
  });

  it('pays out what the range holds when more is asked, unfilled (QuoterV2 reverts here without a limit)', () => {
    const result = simulateSwap(onePosition(), false, -2n * inRange0);
    expect(result).toMatchObject({ amountOut: inRange0, filled: false, sqrtPriceX96After: MAX_SQRT_RATIO - 1n });
  });

  it('crosses the tick it lands on exactly, leaving the tick one below it going down', () => {
    const result = simulateSwap(onePosition(), true, -inRange1);
    expect(result).toMatchObject({
      amountOut: inRange1,
      sqrtPriceX96After: at(-500),
      tickAfter: -501,
      liquidityAfter: 0n,
      ticksCrossed: 1,
      filled: true,
    });
  });

  it('starting one tick below an initialized tick it sits on, crosses it first going up, for nothing', () => {
    const pool = onePosition({ sqrtPriceX96: at(-500), tick: -501, liquidity: 0n });
    const step = computeSwapStep(at(-500), at(500), E18, 10n ** 15n, FEE);
    expect(simulateSwap(pool, false, 10n ** 15n)).toMatchObject({
      amountOut: step.amountOut,
      sqrtPriceX96After: step.sqrtPriceNextX96,
      liquidityAfter: E18,
      ticksCrossed: 1,
    });
  });

  it('crosses nothing and moves nothing in an empty pool', () => {
    const empty = onePosition({ liquidity: 0n, ticks: [] });
    expect(simulateSwap(empty, true, E18)).toMatchObject({
      amountIn: 0n,
      amountOut: 0n,
      sqrtPriceX96After: MIN_SQRT_RATIO + 1n,
      ticksCrossed: 0,
      filled: false,
    });
  });

  it('stops at a price limit inside the range', () => {
    const result = simulateSwap(onePosition(), true, E18, at(-100));
    expect(result).toMatchObject({ sqrtPriceX96After: at(-100), tickAfter: -100, filled: false, ticksCrossed: 0 });
    expect(result.amountOut).toBe(getAmount1Delta(at(-100), at(0), E18, false));
  });

  it('sums liquidity over overlapping positions, crossing each tick once', () => {
    const pool = onePosition({
      liquidity: 3n * E18,
      ticks: [
        { index: -500, liquidityNet: E18 },
        { index: -100, liquidityNet: 2n * E18 },
        { index: 100, liquidityNet: -2n * E18 },
        { index: 500, liquidityNet: -E18 },
      ],
    });
    const result = simulateSwap(pool, true, E18);
    expect(result.amountOut).toBe(
      getAmount1Delta(at(-100), at(0), 3n * E18, false) + getAmount1Delta(at(-500), at(-100), E18, false),
    );
    expect(result).toMatchObject({ ticksCrossed: 2, liquidityAfter: 0n });
  });
});

describe('simulateSwap at bitmap word edges', () => {
  // Spacing 1: a word is 256 ticks, so a swap from tick 100 down to about -100 stops at tick 0, the edge of word 0.
  const L = E18;
  const pool: PoolState = {
    sqrtPriceX96: at(100) + 1n,
    tick: 100,
    liquidity: L,
    fee: 100,
    tickSpacing: 1,
    ticks: [
      { index: -1000, liquidityNet: L },
      { index: 1000, liquidityNet: -L },
    ],
  };

  it('steps at the edge as the pool does, which rounds once more than a single step would', () => {
    const amount = 10n ** 16n;
    const first = computeSwapStep(pool.sqrtPriceX96, at(0), L, amount, 100);
    const second = computeSwapStep(at(0), at(-256), L, amount - first.amountIn - first.feeAmount, 100);
    const result = simulateSwap(pool, true, amount);
    expect(result.amountOut).toBe(first.amountOut + second.amountOut);
    expect(result.sqrtPriceX96After).toBe(second.sqrtPriceNextX96);
    // One step straight to the position's edge would pay 2 wei more: the pool's own rounding, kept.
    expect(computeSwapStep(pool.sqrtPriceX96, at(-1000), L, amount, 100).amountOut - result.amountOut).toBe(2n);
  });
});

describe('simulateSwap refuses what the pool refuses', () => {
  it('throws a RangeError for a zero amount (AS) and a limit on the wrong side or out of range (SPL)', () => {
    const pool = onePosition();
    expect(() => simulateSwap(pool, true, 0n)).toThrow(/AS/);
    expect(() => simulateSwap(pool, true, E18, at(10))).toThrow(/SPL/);
    expect(() => simulateSwap(pool, true, E18, MIN_SQRT_RATIO)).toThrow(/SPL/);
    expect(() => simulateSwap(pool, false, E18, at(-10))).toThrow(/SPL/);
    expect(() => simulateSwap(pool, false, E18, MAX_SQRT_RATIO)).toThrow(RangeError);
  });

  it('throws when crossing a tick would take the liquidity below zero (LS)', () => {
    const broken = onePosition({ ticks: [{ index: -500, liquidityNet: 2n * E18 }] });
    expect(() => simulateSwap(broken, true, E18)).toThrow(/LS/);
  });
});

/**
 * A pool of a few positions (some around the price, some away from it, some touching its tick), its price anywhere in
 * its tick: gaps without liquidity, ticks exactly at the price and bitmap word edges all come up.
 */
const poolArb = fc
  .record({
    spacing: fc.constantFrom(1, 10, 50, 200),
    fee: fc.constantFrom(100, 500, 2500, 10_000),
    tick: fc.integer({ min: -3000, max: 3000 }),
    within: fc.bigInt({ min: 0n, max: 2n ** 64n }),
    positions: fc.array(
      fc.record({
        lower: fc.integer({ min: -40, max: 40 }),
        width: fc.integer({ min: 1, max: 30 }),
        liquidity: fc.bigInt({ min: 1n, max: 2n ** 100n }),
      }),
      { minLength: 1, maxLength: 5 },
    ),
  })
  .map(({ spacing, fee, tick: around, within, positions }): PoolState => {
    const base = Math.round(around / spacing);
    const nets = new Map<number, bigint>();
    let liquidity = 0n;
    // The price sits on a position's edge in some pools: tick = its upper or lower index.
    const tick = positions.length > 2 ? (base + (positions[0]?.lower ?? 0)) * spacing : around;
    for (const { lower, width, liquidity: amount } of positions) {
      const low = (base + lower) * spacing;
      const high = low + width * spacing;
      nets.set(low, (nets.get(low) ?? 0n) + amount);
      nets.set(high, (nets.get(high) ?? 0n) - amount);
      if (low <= tick && tick < high) liquidity = addDelta(liquidity, amount);
    }
    const floor = at(tick);
    const span = at(tick + 1) - floor;
    return {
      sqrtPriceX96: floor + (within % span),
      tick,
      liquidity,
      fee,
      tickSpacing: spacing,
      ticks: [...nets]
        .filter(([, net]) => net !== 0n)
        .sort(([a], [b]) => a - b)
        .map(([index, liquidityNet]) => ({ index, liquidityNet })),
    };
  });

/** What a swap gives, or the error it throws. */
function outcome(swap: () => unknown): unknown {
  try {
    return swap();
  } catch (error) {
    return (error as Error).message;
  }
}

describe("simulateSwap's full steps, worked out once per pool state", () => {
  it('give what the loop gives, step by step, for every amount, direction and exactness', () => {
    const amount = fc.oneof(fc.bigInt({ min: 1n, max: 2n ** 40n }), fc.bigInt({ min: 1n, max: 2n ** 120n }));
    fc.assert(
      fc.property(
        poolArb,
        fc.array(fc.tuple(fc.boolean(), fc.boolean(), amount), { minLength: 1, maxLength: 8 }),
        (pool, swaps) => {
          // The same state asked again and again, as quotes ask it: later swaps meet the steps earlier ones cached.
          for (const [zeroForOne, exactIn, size] of swaps) {
            const specified = exactIn ? size : -size;
            // An explicit limit takes the loop alone; the default one takes the cached steps first.
            const limit = zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n;
            const stepwise = outcome(() => simulateSwap(pool, zeroForOne, specified, limit));
            expect(outcome(() => simulateSwap(pool, zeroForOne, specified))).toEqual(stepwise);
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});
