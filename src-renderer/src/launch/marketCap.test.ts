import { describe, expect, it } from 'vitest';
import { convertCap } from './marketCap';

describe('convertCap', () => {
  it('converts a pair cap to dollars to the cent and back to six significant digits', () => {
    expect(convertCap('30', 'pair', 'usd', 600.123, 18)).toBe('18003.69');
    expect(convertCap('18003.69', 'usd', 'pair', 600.123, 18)).toBe('30');
    expect(convertCap('0.5', 'pair', 'usd', 1, 18)).toBe('0.5');
  });
  it('keeps the pair decimals and leaves unreadable text alone', () => {
    expect(convertCap('100', 'usd', 'pair', 3, 2)).toBe('33.33');
    expect(convertCap('abc', 'usd', 'pair', 3, 18)).toBe('abc');
    expect(convertCap('', 'pair', 'usd', 3, 18)).toBe('');
  });
});
