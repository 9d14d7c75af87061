import fc from 'fast-check';
import { formatUnits } from 'viem';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors';
import { formatDecimalAmount, parseDecimalAmount } from './decimalAmount';

function codeOf(run: () => unknown): string {
  try {
    run();
    return 'ok';
  } catch (error) {
    return error instanceof ApiError ? error.code : 'not an ApiError';
  }
}

describe('parseDecimalAmount', () => {
  it('reads whole units into wei exactly', () => {
    expect(parseDecimalAmount('1', 18, 'amount')).toBe(10n ** 18n);
    expect(parseDecimalAmount('0.05', 18, 'amount')).toBe(5n * 10n ** 16n);
    expect(parseDecimalAmount('0.000000000000000001', 18, 'amount')).toBe(1n);
    expect(parseDecimalAmount('123456789012345678901234567890.5', 18, 'amount')).toBe(
      123456789012345678901234567890n * 10n ** 18n + 5n * 10n ** 17n,
    );
    expect(parseDecimalAmount('007.50', 6, 'amount')).toBe(7_500_000n);
  });

  it('refuses what is not a plain positive decimal with INVALID_AMOUNT', () => {
    for (const bad of [
      '',
      ' 1',
      '1 ',
      '-1',
      '+1',
      '1e18',
      '0x10',
      '1,5',
      '.5',
      '5.',
      '1.2.3',
      'NaN',
      'Infinity',
      '０',
    ]) {
      expect(
        codeOf(() => parseDecimalAmount(bad, 18, 'amount')),
        bad,
      ).toBe('INVALID_AMOUNT');
    }
    for (const bad of [1, null, undefined, {}, [], true]) {
      expect(codeOf(() => parseDecimalAmount(bad, 18, 'amount'))).toBe('INVALID_AMOUNT');
    }
    expect(codeOf(() => parseDecimalAmount('0', 18, 'amount'))).toBe('INVALID_AMOUNT');
    expect(codeOf(() => parseDecimalAmount('0.000', 18, 'amount'))).toBe('INVALID_AMOUNT');
  });

  it('refuses more places than the currency has with TOO_MANY_DECIMALS, naming the field', () => {
    expect(codeOf(() => parseDecimalAmount('0.0000000000000000001', 18, 'amount'))).toBe('TOO_MANY_DECIMALS');
    expect(codeOf(() => parseDecimalAmount('1.1234567', 6, 'amount'))).toBe('TOO_MANY_DECIMALS');
    try {
      parseDecimalAmount('1.1234567', 6, 'amount');
    } catch (error) {
      expect((error as ApiError).field).toBe('amount');
    }
  });
});

// The API writes amounts with formatDecimalAmount in GET /quote's path and viem's formatUnits elsewhere: these pin what
// it relies on (no trailing zeros, no exponent), and that the two write the same.
describe('formatDecimalAmount and formatUnits, as the API writes amounts', () => {
  it('writes the same string as formatUnits for every amount and decimals, negative ones too', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(2n ** 256n), max: 2n ** 256n - 1n }),
        fc.integer({ min: 0, max: 77 }),
        (wei, decimals) => {
          expect(formatDecimalAmount(wei, decimals)).toBe(formatUnits(wei, decimals));
        },
      ),
      { numRuns: 20_000 },
    );
    for (const wei of [0n, 1n, 10n, 100n, 10n ** 18n, 12n * 10n ** 17n]) {
      for (const decimals of [0, 1, 2, 18]) expect(formatDecimalAmount(wei, decimals)).toBe(formatUnits(wei, decimals));
    }
  });

  it('writes wei as whole units without trailing zeros, and round-trips', () => {
    expect(formatUnits(0n, 18)).toBe('0');
    expect(formatUnits(1n, 18)).toBe('0.000000000000000001');
    expect(formatUnits(15n * 10n ** 17n, 18)).toBe('1.5');
    expect(formatUnits(10n ** 30n, 18)).toBe('1000000000000');
    expect(formatUnits(7_500_000n, 6)).toBe('7.5');
    expect(formatUnits(5n, 0)).toBe('5');
    for (const wei of [1n, 999n, 10n ** 18n + 1n, 123456789n * 10n ** 20n]) {
      expect(parseDecimalAmount(formatUnits(wei, 18), 18, 'x')).toBe(wei);
    }
  });

  it('round-trips every positive amount through parseDecimalAmount, at any decimals', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 2n ** 256n - 1n }), fc.integer({ min: 0, max: 36 }), (wei, decimals) => {
        expect(parseDecimalAmount(formatUnits(wei, decimals), decimals, 'x')).toBe(wei);
        expect(parseDecimalAmount(formatDecimalAmount(wei, decimals), decimals, 'x')).toBe(wei);
      }),
    );
  });
});
