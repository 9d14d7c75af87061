import { describe, expect, it } from 'vitest';
import { formatAmount, formatExact, formatUsd, usdValue } from './numbers';

const e18 = 10n ** 18n;

describe('formatAmount', () => {
  it('writes separators and keeps the integer part whole', () => {
    expect(formatAmount(1920600486177059242987378n, 18)).toBe('1,920,600');
    expect(formatAmount(1000000000n * e18, 18)).toBe('1,000,000,000');
    expect(formatAmount(123456789n * 10n ** 13n, 18)).toBe('1,234.57');
    expect(formatAmount(15n * 10n ** 17n, 18)).toBe('1.5');
    expect(formatAmount(0n, 18)).toBe('0');
    expect(formatAmount(-15n * 10n ** 17n, 18)).toBe('-1.5');
  });

  it('rounds half up on the exact decimal, never through a float', () => {
    // 0.1 + 0.2 in wei: exact, and rounded on its digits.
    expect(formatAmount(3n * 10n ** 17n, 18)).toBe('0.3');
    expect(formatAmount(1234565n * 10n ** 12n, 18, { significant: 6 })).toBe('1.23457');
    expect(formatAmount(1234564n * 10n ** 12n, 18, { significant: 6 })).toBe('1.23456');
    expect(formatAmount(9999995n * 10n ** 12n, 18, { significant: 6 })).toBe('10');
    // A floor never reads more than it is, a ceiling never less.
    expect(formatAmount(24172230959597294766329134n, 18, { significant: 6, round: 'down' })).toBe('24,172,200');
    expect(formatAmount(1234565n * 10n ** 12n, 18, { significant: 6, round: 'down' })).toBe('1.23456');
    expect(formatAmount(1234561n * 10n ** 12n, 18, { significant: 6, round: 'up' })).toBe('1.23457');
    expect(formatAmount(1234560n * 10n ** 12n, 18, { significant: 6, round: 'up' })).toBe('1.23456');
  });

  it('counts the zeros of a tiny price in subscript', () => {
    expect(formatAmount(44640000000n, 18)).toBe('0.0₇4464');
    expect(formatAmount(44641234567n, 18, { significant: 4 })).toBe('0.0₇4464');
    expect(formatAmount(12344n * 10n ** 9n, 18, { significant: 4 })).toBe('0.0₄1234');
    expect(formatAmount(12345n * 10n ** 9n, 18, { significant: 4 })).toBe('0.0₄1235');
    // Three zeros stay as they are.
    expect(formatAmount(1234n * 10n ** 11n, 18)).toBe('0.0001234');
    expect(formatAmount(1n, 18)).toBe('0.0₁₇1');
  });

  it('writes large amounts as K, M, B and T when compact, choosing the unit after rounding', () => {
    expect(formatAmount(1920600486177059242987378n, 18, { compact: true })).toBe('1.921M');
    expect(formatAmount(999950n * e18, 18, { compact: true })).toBe('1M');
    expect(formatAmount(1500n * e18, 18, { compact: true })).toBe('1.5K');
    expect(formatAmount(2n * 10n ** 9n * e18, 18, { compact: true })).toBe('2B');
    expect(formatAmount(12345678n * 10n ** 6n * e18, 18, { compact: true })).toBe('12.35T');
    expect(formatAmount(12345678n * 10n ** 12n * e18, 18, { compact: true })).toBe('12,350,000T');
    expect(formatAmount(999n * e18, 18, { compact: true })).toBe('999');
  });
});

describe('formatExact', () => {
  it('keeps every digit', () => {
    expect(formatExact(1920600486177059242987378n, 18)).toBe('1,920,600.486177059242987378');
    expect(formatExact(1n, 18)).toBe('0.000000000000000001');
    expect(formatExact(5n, 0)).toBe('5');
  });
});

describe('formatUsd', () => {
  it('writes cents up to $1,000 and K/M/B above', () => {
    expect(formatUsd(5251.7)).toBe('$5.25K');
    expect(formatUsd(12345)).toBe('$12.3K');
    expect(formatUsd(999_999)).toBe('$1M');
    expect(formatUsd(2.5e9)).toBe('$2.5B');
    expect(formatUsd(600)).toBe('$600.00');
    expect(formatUsd(999.996)).toBe('$1K');
    expect(formatUsd(1.005)).toMatch(/^\$1\.0[01]$/);
  });

  it('writes under a dollar with four significant digits, tiny values in subscript', () => {
    expect(formatUsd(0.5)).toBe('$0.5');
    expect(formatUsd(0.01234)).toBe('$0.01234');
    expect(formatUsd(0.000000123)).toBe('$0.0₆123');
    expect(formatUsd(0)).toBe('$0');
    expect(formatUsd(null)).toBe('—');
    expect(formatUsd(Number.NaN)).toBe('—');
    expect(formatUsd(-5251.7)).toBe('-$5.25K');
  });
});

describe('usdValue', () => {
  it('values an amount at a dollar price, null without one', () => {
    expect(usdValue(2n * e18, 18, 600)).toBe(1200);
    expect(usdValue(15n * 10n ** 17n, 18, 2)).toBe(3);
    expect(usdValue(e18, 18, null)).toBeNull();
    expect(usdValue(1000000n, 6, 1)).toBe(1);
  });
});
