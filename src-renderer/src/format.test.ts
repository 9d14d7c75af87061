import { describe, expect, it } from 'vitest';
import { formatPct, formatSharePct } from './format';

describe('formatSharePct', () => {
  it('writes two decimals with separators, and a floor for a share too small to show', () => {
    expect(formatSharePct(12.3456)).toBe('12.35%');
    expect(formatSharePct(100)).toBe('100.00%');
    expect(formatSharePct(0)).toBe('0.00%');
    expect(formatSharePct(0.01)).toBe('0.01%');
    expect(formatSharePct(0.0001)).toBe('<0.01%');
    expect(formatSharePct(1234.5)).toBe('1,234.50%');
    // A balance so small its share was rounded down to none is still some.
    expect(formatSharePct(0, true)).toBe('<0.01%');
    expect(formatSharePct(0, false)).toBe('0.00%');
  });
});

describe('formatPct', () => {
  it('writes at most two decimals, none from 100% up, and a floor for a percent too small to show', () => {
    expect(formatPct(23.4)).toBe('23.4%');
    expect(formatPct(0.05)).toBe('0.05%');
    expect(formatPct(12.3456)).toBe('12.35%');
    expect(formatPct(150.4)).toBe('150%');
    expect(formatPct(1234.5)).toBe('1,235%');
    expect(formatPct(0)).toBe('0%');
    expect(formatPct(0.004)).toBe('<0.01%');
  });
});
