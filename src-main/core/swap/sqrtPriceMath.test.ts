import { describe, expect, it } from 'vitest';
import {
  getAmount0Delta,
  getAmount1Delta,
  getNextSqrtPriceFromAmount0RoundingUp,
  getNextSqrtPriceFromAmount1RoundingDown,
  getNextSqrtPriceFromInput,
  getNextSqrtPriceFromOutput,
} from './sqrtPriceMath';

// Vectors from Uniswap v3-core's SqrtPriceMath spec, whose library PancakeSwap V3 ships unchanged.
const Q96 = 2n ** 96n;
const E18 = 10n ** 18n;
/** sqrt(1.21) * 2^96: a price of 1.21. */
const PRICE_1_21 = 87150978765690771352898345369n;
const MAX_UINT256 = 2n ** 256n - 1n;
/** 2^104: a price of 65536, so liquidity 1024 holds virtual reserves of 4 token0 and 262144 token1. */
const SMALL_POOL_PRICE = 20282409603651670423947251286016n;

describe('getNextSqrtPriceFromInput', () => {
  it('moves the price by 0.1 of either token at price 1 and liquidity 1e18', () => {
    expect(getNextSqrtPriceFromInput(Q96, E18, E18 / 10n, false)).toBe(87150978765690771352898345369n);
    expect(getNextSqrtPriceFromInput(Q96, E18, E18 / 10n, true)).toBe(72025602285694852357767227579n);
  });

  it('returns the price unchanged for a zero amount', () => {
    expect(getNextSqrtPriceFromInput(Q96, E18, 0n, true)).toBe(Q96);
    expect(getNextSqrtPriceFromInput(Q96, E18, 0n, false)).toBe(Q96);
  });

  it('takes the overflow fallback for huge token0 amounts, down to a price of 1 and never below', () => {
    expect(getNextSqrtPriceFromInput(Q96, 10n * E18, 2n ** 100n, true)).toBe(624999999995069620n);
    expect(getNextSqrtPriceFromInput(Q96, 1n, MAX_UINT256 / 2n, true)).toBe(1n);
    expect(getNextSqrtPriceFromInput(1n, 1n, 2n ** 255n, true)).toBe(1n);
  });

  it('rounds token0 in up so the price never drops past the exact result', () => {
    const price = 1025574284609383690408304870162715216695788925244n;
    const liquidity = 50015962439936049619261659728067971248n;
    const next = getNextSqrtPriceFromInput(price, liquidity, 406n, true);
    expect(next).toBe(1025574284609383582644711336373707553698163132913n);
    expect(getAmount0Delta(next, price, liquidity, true)).toBe(406n);
  });

  it('throws where the pool reverts: zero price or liquidity, a price past uint160', () => {
    expect(() => getNextSqrtPriceFromInput(0n, 1n, E18, true)).toThrow(RangeError);
    expect(() => getNextSqrtPriceFromInput(Q96, 0n, E18, true)).toThrow(RangeError);
    expect(() => getNextSqrtPriceFromInput(2n ** 160n - 1n, 1024n, 1024n, false)).toThrow(RangeError);
  });
});

describe('getNextSqrtPriceFromOutput', () => {
  it('moves the price by 0.1 of either token out at price 1 and liquidity 1e18', () => {
    expect(getNextSqrtPriceFromOutput(Q96, E18, E18 / 10n, false)).toBe(88031291682515930659493278152n);
    expect(getNextSqrtPriceFromOutput(Q96, E18, E18 / 10n, true)).toBe(71305346262837903834189555302n);
  });

  it('pays out up to a wei less than the virtual reserve and throws at or past it', () => {
    expect(getNextSqrtPriceFromOutput(SMALL_POOL_PRICE, 1024n, 262143n, true)).toBe(77371252455336267181195264n);
    expect(() => getNextSqrtPriceFromOutput(SMALL_POOL_PRICE, 1024n, 262144n, true)).toThrow(RangeError);
    expect(() => getNextSqrtPriceFromOutput(SMALL_POOL_PRICE, 1024n, 4n, false)).toThrow(RangeError);
    expect(() => getNextSqrtPriceFromOutput(SMALL_POOL_PRICE, 1024n, 5n, false)).toThrow(RangeError);
    expect(() => getNextSqrtPriceFromOutput(Q96, 1n, MAX_UINT256, true)).toThrow(RangeError);
    expect(() => getNextSqrtPriceFromOutput(Q96, 1n, MAX_UINT256, false)).toThrow(RangeError);
  });
});

describe('getNextSqrtPriceFromAmount0RoundingUp and getNextSqrtPriceFromAmount1RoundingDown', () => {
  it('round toward the start price on the way in and away from it on the way out', () => {
    // 1 wei of token0 into liquidity 3 at price 1: exactly 3/4 * 2^96, no rounding needed.
    expect(getNextSqrtPriceFromAmount0RoundingUp(Q96, 3n, 1n, true)).toBe((Q96 * 3n) / 4n);
    // 1 wei of token1 into liquidity 3: 2^96 / 3 is not whole, the price moves by its floor.
    expect(getNextSqrtPriceFromAmount1RoundingDown(Q96, 3n, 1n, true)).toBe(Q96 + Q96 / 3n);
    expect(getNextSqrtPriceFromAmount1RoundingDown(Q96, 3n, 1n, false)).toBe(Q96 - Q96 / 3n - 1n);
  });
});

describe('getAmount0Delta and getAmount1Delta', () => {
  it('give 0.1 of each token between prices 1 and 1.21 with liquidity 1e18, rounding up or down', () => {
    expect(getAmount0Delta(Q96, PRICE_1_21, E18, true)).toBe(90909090909090910n);
    expect(getAmount0Delta(Q96, PRICE_1_21, E18, false)).toBe(90909090909090909n);
    expect(getAmount1Delta(Q96, PRICE_1_21, E18, true)).toBe(100000000000000000n);
    expect(getAmount1Delta(Q96, PRICE_1_21, E18, false)).toBe(99999999999999999n);
  });

  it('take the prices in either order and give 0 for no liquidity or no price change', () => {
    expect(getAmount0Delta(PRICE_1_21, Q96, E18, true)).toBe(getAmount0Delta(Q96, PRICE_1_21, E18, true));
    expect(getAmount1Delta(PRICE_1_21, Q96, E18, false)).toBe(getAmount1Delta(Q96, PRICE_1_21, E18, false));
    expect(getAmount0Delta(Q96, PRICE_1_21, 0n, true)).toBe(0n);
    expect(getAmount1Delta(Q96, Q96, E18, true)).toBe(0n);
  });

  it('keep the full product for prices whose product overflows 256 bits', () => {
    const low = 2n ** 141n;
    const high = 2n ** 144n;
    expect(getAmount0Delta(low, high, E18, true)).toBe(getAmount0Delta(low, high, E18, false) + 1n);
  });

  it('throws for a zero price, as the pool reverts', () => {
    expect(() => getAmount0Delta(0n, Q96, E18, true)).toThrow(RangeError);
  });
});
