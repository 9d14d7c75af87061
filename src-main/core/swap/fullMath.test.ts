import { describe, expect, it } from 'vitest';
import { divRoundingUp, MAX_UINT256, mulDiv, mulDivRoundingUp } from './fullMath';

describe('mulDiv', () => {
  it('floors, and keeps the full 512-bit product before dividing', () => {
    expect(mulDiv(7n, 3n, 2n)).toBe(10n);
    expect(mulDiv(MAX_UINT256, MAX_UINT256, MAX_UINT256)).toBe(MAX_UINT256);
    expect(mulDiv(2n ** 200n, 2n ** 200n, 2n ** 160n)).toBe(2n ** 240n);
  });

  it('throws where FullMath reverts: a zero denominator, a result past uint256', () => {
    expect(() => mulDiv(1n, 1n, 0n)).toThrow(RangeError);
    expect(() => mulDiv(MAX_UINT256, 2n, 1n)).toThrow(RangeError);
  });
});

describe('mulDivRoundingUp', () => {
  it('rounds up only when there is a remainder', () => {
    expect(mulDivRoundingUp(7n, 3n, 2n)).toBe(11n);
    expect(mulDivRoundingUp(6n, 3n, 2n)).toBe(9n);
    expect(mulDivRoundingUp(0n, 3n, 2n)).toBe(0n);
  });

  it('returns 2^256 - 1 when exact, and throws when rounding up would pass it', () => {
    expect(mulDivRoundingUp(MAX_UINT256, 1n, 1n)).toBe(MAX_UINT256);
    // Floors to 2^256 - 1 with a remainder (a vector from Uniswap's FullMath spec): FullMath's
    // require(result < type(uint256).max) reverts rather than round up past it.
    const a = 535006138814359n;
    const b = 432862656469423142931042426214547535783388063929571229938474969n;
    expect(mulDiv(a, b, 2n)).toBe(MAX_UINT256);
    expect(() => mulDivRoundingUp(a, b, 2n)).toThrow(RangeError);
    expect(() => mulDivRoundingUp(1n, 1n, 0n)).toThrow(RangeError);
  });
});

describe('divRoundingUp', () => {
  it('is the ceiling, and 0 for a zero divisor as the EVM gives', () => {
    expect(divRoundingUp(7n, 2n)).toBe(4n);
    expect(divRoundingUp(8n, 2n)).toBe(4n);
    expect(divRoundingUp(7n, 0n)).toBe(0n);
  });
});
