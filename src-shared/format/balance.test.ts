import { parseUnits } from 'viem';
import { describe, expect, it } from 'vitest';
import { formatBalance, roundBalance, shareOfBalance } from './balance';

const units = (text: string, decimals = 18) => parseUnits(text, decimals);

describe('formatBalance', () => {
  it('keeps the whole integer part: 6,880,770 reads 6,880,770, never 6,880,700', () => {
    expect(formatBalance(units('6880770.987654321'), 18)).toBe('6,880,770');
    expect(formatBalance(units('1920600486.177059242987378'), 18)).toBe('1,920,600,486');
  });

  it('shows six significant digits under that, rounded down so it never reads more than is held', () => {
    expect(formatBalance(units('12.3456789'), 18)).toBe('12.3456');
    expect(formatBalance(units('0.999999999'), 18)).toBe('0.999999');
    expect(formatBalance(units('9999.999999'), 18)).toBe('9,999.99');
    expect(formatBalance(units('0.00000004464999'), 18)).toBe('0.0₇446499');
    expect(formatBalance(0n, 18)).toBe('0');
  });

  it('writes an integer part longer than 18 digits whole', () => {
    const huge = 12345678901234567890123n * 10n ** 18n + 5n;
    expect(formatBalance(huge, 18)).toBe('12,345,678,901,234,567,890,123');
  });
});

describe('shareOfBalance', () => {
  it('fills Max of a balance with dust at the balance precision, never above it', () => {
    const held = units('6880770.987654321987654321');
    const max = shareOfBalance(held, 18, 100);
    expect(max.text).toBe('6880770');
    expect(max.wei).toBe(units('6880770'));
    expect(max.wei).toBeLessThanOrEqual(held);
    // What the field holds is what the balance shows.
    expect(formatBalance(held, 18)).toBe('6,880,770');
  });

  it('fills 50% of an odd wei amount rounded down, with no 18 noise digits', () => {
    const held = 1234567891234567891n; // 1.234567891234567891
    const half = shareOfBalance(held, 18, 50);
    expect(half.text).toBe('0.617283');
    expect(half.wei * 2n).toBeLessThanOrEqual(held);
    // An odd number of wei with no decimals: the half is rounded down, never up.
    expect(shareOfBalance(7n, 0, 50)).toEqual({ wei: 3n, text: '3' });
    expect(shareOfBalance(1n, 18, 50)).toEqual({ wei: 0n, text: '0' });
  });

  it('never writes more decimals than the token has', () => {
    const held = units('123.456789', 6);
    expect(shareOfBalance(held, 6, 100).text).toBe('123.456');
    expect(shareOfBalance(units('0.000001', 6), 6, 100).text).toBe('0.000001');
    for (const decimals of [0, 2, 6, 9, 18]) {
      for (const percent of [25, 50, 100]) {
        const { text, wei } = shareOfBalance(987654321987654321987n, decimals, percent);
        expect((text.split('.')[1] ?? '').length).toBeLessThanOrEqual(decimals);
        expect(parseUnits(text, decimals)).toBe(wei);
        expect(wei * 100n).toBeLessThanOrEqual(987654321987654321987n * BigInt(percent));
      }
    }
  });

  it('refuses a share that is not a whole per cent from 0 to 100', () => {
    expect(() => shareOfBalance(10n, 18, 101)).toThrow(RangeError);
    expect(() => shareOfBalance(10n, 18, 12.5)).toThrow(RangeError);
  });

  it('rounds a negative balance toward zero (never shown larger than it is)', () => {
    expect(roundBalance(-units('1.23456789'), 18)).toBe(-units('1.23456'));
  });
});
