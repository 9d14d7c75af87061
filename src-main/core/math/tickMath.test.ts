import { describe, expect, it } from 'vitest';
import { getSqrtRatioAtTick, getTickAtSqrtRatio, MAX_SQRT_RATIO, MAX_TICK, MIN_SQRT_RATIO, MIN_TICK } from './tickMath';

describe('tickMath', () => {
  it('has the pool bounds at the extreme ticks and 2^96 at tick 0', () => {
    expect(getSqrtRatioAtTick(MIN_TICK)).toBe(MIN_SQRT_RATIO);
    expect(getSqrtRatioAtTick(MAX_TICK)).toBe(MAX_SQRT_RATIO);
    expect(getSqrtRatioAtTick(0)).toBe(2n ** 96n);
  });

  it('inverts: the tick of a tick price is that tick, and one wei less is the tick below', () => {
    for (const tick of [MIN_TICK, -500000, -200, -1, 0, 1, 199, 200, 46000, 500000, MAX_TICK - 1]) {
      const price = getSqrtRatioAtTick(tick);
      expect(getTickAtSqrtRatio(price)).toBe(tick);
      if (tick > MIN_TICK) expect(getTickAtSqrtRatio(price - 1n)).toBe(tick - 1);
    }
  });

  it('refuses ticks and prices out of range', () => {
    expect(() => getSqrtRatioAtTick(MAX_TICK + 1)).toThrow(RangeError);
    expect(() => getSqrtRatioAtTick(1.5)).toThrow(RangeError);
    expect(() => getTickAtSqrtRatio(MIN_SQRT_RATIO - 1n)).toThrow(RangeError);
    expect(() => getTickAtSqrtRatio(MAX_SQRT_RATIO)).toThrow(RangeError);
  });
});
