import { describe, expect, it } from 'vitest';
import { uncollectedFees } from './positionFees';

const Q128 = 1n << 128n;
const MAX = (1n << 256n) - 1n;
const flat = { feeGrowthOutside0X128: 0n, feeGrowthOutside1X128: 0n };
const position = (liquidity: bigint) => ({
  liquidity,
  feeGrowthInside0LastX128: 0n,
  feeGrowthInside1LastX128: 0n,
  tokensOwed0: 0n,
  tokensOwed1: 0n,
});

describe('uncollectedFees', () => {
  it('pays a range holding the price all the growth since it was last settled, plus what it owes', () => {
    const fees = uncollectedFees({
      tickLower: -60,
      tickUpper: 60,
      tick: 0,
      feeGrowthGlobal0X128: 3n * Q128,
      feeGrowthGlobal1X128: Q128 / 2n,
      lower: flat,
      upper: flat,
      position: { ...position(10n), tokensOwed1: 7n },
    });
    expect(fees).toEqual({ amount0: 30n, amount1: 12n });
  });

  it('counts only the growth between the ticks when the price sits above the range', () => {
    // Growth below the lower tick is its outside; above the upper tick (where the price is) the global less outside.
    const fees = uncollectedFees({
      tickLower: -120,
      tickUpper: -60,
      tick: 0,
      feeGrowthGlobal0X128: 10n * Q128,
      feeGrowthGlobal1X128: 10n * Q128,
      lower: { feeGrowthOutside0X128: 2n * Q128, feeGrowthOutside1X128: 0n },
      upper: { feeGrowthOutside0X128: 5n * Q128, feeGrowthOutside1X128: 4n * Q128 },
      position: position(1n),
    });
    expect(fees).toEqual({ amount0: 3n, amount1: 4n });
  });

  it('wraps like the pool when the stored growth has passed 2^256', () => {
    const fees = uncollectedFees({
      tickLower: -60,
      tickUpper: 60,
      tick: 0,
      feeGrowthGlobal0X128: Q128 - 1n,
      feeGrowthGlobal1X128: 0n,
      lower: flat,
      upper: flat,
      position: { ...position(2n), feeGrowthInside0LastX128: MAX - Q128 },
    });
    // Inside growth went from 2^256 - 1 - 2^128 to 2^128 - 1: exactly 2 * 2^128 later.
    expect(fees).toEqual({ amount0: 4n, amount1: 0n });
  });
});
