import { describe, expect, it } from 'vitest';
import { applyPoolEvents, type TrackedPoolState } from './applyPoolEvents';

const Q96 = 1n << 96n;

/** A pool at tick 0 with one position from -600 to 600 holding 1,000 liquidity. */
const pool: TrackedPoolState = {
  sqrtPriceX96: Q96,
  tick: 0,
  liquidity: 1000n,
  fee: 2500,
  tickSpacing: 50,
  ticks: [
    { index: -600, liquidityNet: 1000n, liquidityGross: 1000n },
    { index: 600, liquidityNet: -1000n, liquidityGross: 1000n },
  ],
};

describe('applyPoolEvents', () => {
  it('takes price, tick and liquidity from a swap, ticks untouched', () => {
    const next = applyPoolEvents(pool, [{ kind: 'swap', sqrtPriceX96: Q96 * 2n, tick: 13863, liquidity: 0n }]);
    expect(next).toEqual({ ...pool, sqrtPriceX96: Q96 * 2n, tick: 13863, liquidity: 0n });
  });

  it('inserts the ticks of a new range in order and adds to liquidity only when the tick is in it', () => {
    const inRange = applyPoolEvents(pool, [{ kind: 'mint', tickLower: -100, tickUpper: 0, amount: 7n }]);
    expect(inRange.liquidity).toBe(1000n);
    expect(inRange.ticks).toEqual([
      { index: -600, liquidityNet: 1000n, liquidityGross: 1000n },
      { index: -100, liquidityNet: 7n, liquidityGross: 7n },
      { index: 0, liquidityNet: -7n, liquidityGross: 7n },
      { index: 600, liquidityNet: -1000n, liquidityGross: 1000n },
    ]);
    // The lower bound is inclusive: a position from the current tick up is in range.
    const fromHere = applyPoolEvents(pool, [{ kind: 'mint', tickLower: 0, tickUpper: 800, amount: 5n }]);
    expect(fromHere.liquidity).toBe(1005n);
    expect(fromHere.ticks.map((t) => t.index)).toEqual([-600, 0, 600, 800]);
  });

  it('adds to the gross and net of a tick already bounding a position, on the side it bounds', () => {
    const next = applyPoolEvents(pool, [{ kind: 'mint', tickLower: 600, tickUpper: 1200, amount: 300n }]);
    expect(next.ticks).toEqual([
      { index: -600, liquidityNet: 1000n, liquidityGross: 1000n },
      { index: 600, liquidityNet: -700n, liquidityGross: 1300n },
      { index: 1200, liquidityNet: -300n, liquidityGross: 300n },
    ]);
    expect(next.liquidity).toBe(1000n);
  });

  it('clears a tick whose gross a burn takes to zero, even with its net at zero before', () => {
    // -600..600 and 600..1200 of the same size leave tick 600 with a net of 0 but a gross of 2,000.
    const two = applyPoolEvents(pool, [{ kind: 'mint', tickLower: 600, tickUpper: 1200, amount: 1000n }]);
    expect(two.ticks.find((t) => t.index === 600)).toEqual({ index: 600, liquidityNet: 0n, liquidityGross: 2000n });
    const one = applyPoolEvents(two, [{ kind: 'burn', tickLower: -600, tickUpper: 600, amount: 1000n }]);
    expect(one.ticks).toEqual([
      { index: 600, liquidityNet: 1000n, liquidityGross: 1000n },
      { index: 1200, liquidityNet: -1000n, liquidityGross: 1000n },
    ]);
    expect(one.liquidity).toBe(0n);
    const none = applyPoolEvents(one, [{ kind: 'burn', tickLower: 600, tickUpper: 1200, amount: 1000n }]);
    expect(none.ticks).toEqual([]);
  });

  it('changes nothing for a burn of zero (a fee collection)', () => {
    expect(applyPoolEvents(pool, [{ kind: 'burn', tickLower: -600, tickUpper: 600, amount: 0n }])).toEqual(pool);
  });

  it('applies events in order: a mint after a swap sees the new tick', () => {
    const next = applyPoolEvents(pool, [
      { kind: 'swap', sqrtPriceX96: Q96 * 2n, tick: 13863, liquidity: 0n },
      { kind: 'mint', tickLower: 13000, tickUpper: 14000, amount: 9n },
      { kind: 'mint', tickLower: -100, tickUpper: 100, amount: 4n },
    ]);
    expect(next.liquidity).toBe(9n);
    expect(next.ticks.map((t) => t.index)).toEqual([-600, -100, 100, 600, 13000, 14000]);
  });

  it('leaves the state it was given as it was', () => {
    const ticks = pool.ticks.map((t) => ({ ...t }));
    applyPoolEvents(pool, [
      { kind: 'mint', tickLower: -600, tickUpper: 600, amount: 1n },
      { kind: 'swap', sqrtPriceX96: 1n, tick: -5, liquidity: 3n },
    ]);
    expect(pool.ticks).toEqual(ticks);
    expect(pool.liquidity).toBe(1000n);
  });

  it('refuses events the pool could not have emitted from this state', () => {
    const burnTooMuch = { kind: 'burn', tickLower: -600, tickUpper: 600, amount: 1001n } as const;
    expect(() => applyPoolEvents(pool, [burnTooMuch])).toThrow(RangeError);
    const burnUnknown = { kind: 'burn', tickLower: -50, tickUpper: 50, amount: 1n } as const;
    expect(() => applyPoolEvents(pool, [burnUnknown])).toThrow(RangeError);
    const inverted = { kind: 'mint', tickLower: 50, tickUpper: -50, amount: 1n } as const;
    expect(() => applyPoolEvents(pool, [inverted])).toThrow(RangeError);
    // Gross back to zero with a net left over: the two bounds were not one position's.
    const lopsided: TrackedPoolState = { ...pool, ticks: [{ index: -600, liquidityNet: 5n, liquidityGross: 1000n }] };
    const burnAll = { kind: 'burn', tickLower: -600, tickUpper: 600, amount: 1000n } as const;
    expect(() => applyPoolEvents(lopsided, [burnAll])).toThrow(RangeError);
  });
});
