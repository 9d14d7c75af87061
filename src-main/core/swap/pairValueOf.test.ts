import { describe, expect, it } from 'vitest';
import { getSqrtRatioAtTick } from '../math/tickMath';
import { pairValueOf } from './pairValueOf';

const ONE = 10n ** 18n;
const Q96 = 2n ** 96n;

describe('pairValueOf', () => {
  it('values a token at price 1 one for one, on either side of the pool', () => {
    expect(pairValueOf(ONE, Q96, true)).toBe(ONE);
    expect(pairValueOf(ONE, Q96, false)).toBe(ONE);
  });

  it('reads the price as token1 per token0: a token0 at 4 pair is a token1 at 1/4', () => {
    // sqrtPrice 2 means token1 per token0 is 4.
    expect(pairValueOf(ONE, 2n * Q96, true)).toBe(4n * ONE);
    expect(pairValueOf(ONE, 2n * Q96, false)).toBe(ONE / 4n);
  });

  it('rounds down, and scales with the amount (a market cap is the supply valued at once)', () => {
    const sqrt = getSqrtRatioAtTick(-207200);
    const price = pairValueOf(ONE, sqrt, true);
    expect(price).toBeGreaterThan(0n);
    expect(pairValueOf(10n ** 27n, sqrt, true) / 10n ** 9n).toBe(price);
    expect(pairValueOf(1n, sqrt, true)).toBe(0n);
  });
});
