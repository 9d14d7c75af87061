import { describe, expect, it } from 'vitest';
import type { TradeQuote } from '../api/tokens';
import { slippageRetyped, slippageTier, worstCaseOf } from './slippageRisk';

const e18 = 10n ** 18n;

/** The parts of a quote the worst case reads. */
function quoteOf(kind: 'minReceive' | 'maxPay', pay: bigint, receive: bigint, limit: bigint, side = 'buy'): TradeQuote {
  return {
    side,
    pay: { wei: pay.toString(), symbol: 'BNB' },
    receive: { wei: receive.toString(), symbol: 'MCAT' },
    limit: { kind, wei: limit.toString() },
  } as unknown as TradeQuote;
}

describe('slippageTier', () => {
  it('warns above 5% and asks for the number again above 20%', () => {
    expect(slippageTier(50)).toBe('usual');
    expect(slippageTier(500)).toBe('usual');
    expect(slippageTier(501)).toBe('warn');
    expect(slippageTier(2000)).toBe('warn');
    expect(slippageTier(2001)).toBe('retype');
    expect(slippageTier(5000)).toBe('retype');
    expect(slippageTier(null)).toBe('usual');
  });
});

describe('worstCaseOf', () => {
  it('counts an exact-in trade in what it receives: the quote minus the floor', () => {
    const worst = worstCaseOf(quoteOf('minReceive', e18, 1000n * e18, 750n * e18));
    expect(worst).toEqual({
      side: 'receive',
      lossWei: 250n * e18,
      limitWei: 750n * e18,
      inToken: true,
      symbol: 'MCAT',
    });
    // A sell receives the pair.
    expect(worstCaseOf(quoteOf('minReceive', e18, 1000n * e18, 750n * e18, 'sell')).inToken).toBe(false);
  });

  it('counts an exact-out trade in what it pays: the ceiling minus the quote', () => {
    const worst = worstCaseOf(quoteOf('maxPay', 2n * e18, 1000n * e18, 3n * e18));
    expect(worst).toEqual({ side: 'pay', lossWei: e18, limitWei: 3n * e18, inToken: false, symbol: 'BNB' });
    // A sell for an exact amount pays in the token.
    expect(worstCaseOf(quoteOf('maxPay', 2n * e18, 1000n * e18, 3n * e18, 'sell')).inToken).toBe(true);
  });

  it('is never negative, whatever the limit says', () => {
    expect(worstCaseOf(quoteOf('minReceive', e18, 10n, 20n)).lossWei).toBe(0n);
    expect(worstCaseOf(quoteOf('maxPay', 20n, e18, 10n)).lossWei).toBe(0n);
  });
});

describe('slippageRetyped', () => {
  it('matches the same number of basis points only', () => {
    expect(slippageRetyped('25', 2500, 5000)).toBe(true);
    expect(slippageRetyped(' 25.0 ', 2500, 5000)).toBe(true);
    expect(slippageRetyped('2.5', 2500, 5000)).toBe(false);
    expect(slippageRetyped('', 2500, 5000)).toBe(false);
    expect(slippageRetyped('25', null, 5000)).toBe(false);
  });
});
