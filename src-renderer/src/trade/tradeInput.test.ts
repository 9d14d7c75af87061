import { describe, expect, it } from 'vitest';
import { slippageBpsOf, weiOf } from './tradeInput';

describe('slippageBpsOf', () => {
  it('reads per cent with two places at most as basis points, within 0.01% and the maximum', () => {
    expect(slippageBpsOf('0.5', 5000)).toBe(50);
    expect(slippageBpsOf(' 1.25 ', 5000)).toBe(125);
    expect(slippageBpsOf('0.01', 5000)).toBe(1);
    expect(slippageBpsOf('50', 5000)).toBe(5000);
  });
  it('refuses zero, over the maximum, three places, signs and words', () => {
    for (const text of ['0', '0.00', '50.01', '0.125', '-1', '1e1', 'abc', '', '.5']) {
      expect(slippageBpsOf(text, 5000), text).toBeNull();
    }
  });
});

describe('weiOf', () => {
  it('reads a typed amount in the currency decimals', () => {
    expect(weiOf('1.5', 18)).toBe(1_500_000_000_000_000_000n);
    expect(weiOf('.5', 6)).toBe(500_000n);
    expect(weiOf('2.', 6)).toBe(2_000_000n);
  });
  it('is null while the text is no amount', () => {
    for (const text of ['', '.', 'abc', '1,5', '-1', '1e3']) expect(weiOf(text, 18), text).toBeNull();
  });
});
