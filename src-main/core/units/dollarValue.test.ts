import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pairValueOf } from '../swap/pairValueOf';
import { pairMicroPrice, tokenMicroPrice, usdMicros } from './dollarValue';

const PAR = { usdWeiPer: 10n ** 18n, pairWeiPer: 10n ** 18n };
/** 600 dollars a BNB, as the dollar pool's X192 ratio writes it. */
const BNB = { usdWeiPer: 600n << 192n, pairWeiPer: 1n << 192n };

describe('dollar values', () => {
  it('values a pair amount at its rate, in millionths of a dollar rounded down', () => {
    expect(usdMicros(10n ** 18n, pairMicroPrice(BNB))).toBe(600_000_000n);
    expect(usdMicros(1_234_567_890_123n, pairMicroPrice(PAR))).toBe(1n);
    expect(usdMicros(999_999_999_999n, pairMicroPrice(PAR))).toBe(0n);
  });

  it('is null without a rate', () => {
    expect(pairMicroPrice(null)).toBeNull();
    expect(tokenMicroPrice(2n ** 96n, true, null)).toBeNull();
    expect(usdMicros(1n, null)).toBeNull();
  });

  it('values a token amount with one rounding: never below its pair value rounded first', () => {
    const sqrtPrice = fc.bigInt({ min: 2n ** 64n, max: 2n ** 128n });
    const wei = fc.bigInt({ min: 0n, max: 10n ** 30n });
    fc.assert(
      fc.property(wei, sqrtPrice, fc.boolean(), (amount, sqrt, tokenIs0) => {
        const exact = usdMicros(amount, tokenMicroPrice(sqrt, tokenIs0, BNB)) as bigint;
        const twice = usdMicros(pairValueOf(amount, sqrt, tokenIs0), pairMicroPrice(BNB)) as bigint;
        expect(exact >= twice).toBe(true);
        // One pair wei is worth 0.0000000000006 dollars: rounding the pair value first loses under a micro-dollar.
        expect(exact - twice <= 1n).toBe(true);
      }),
    );
  });
});
