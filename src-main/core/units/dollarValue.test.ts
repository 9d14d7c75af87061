import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pairValueOf } from '../swap/pairValueOf';
import { formatDecimalAmount } from './decimalAmount';
import { type MicroPrice, pairMicroPrice, tokenMicroPrice, USD_DECIMALS, usdMicros, usdText } from './dollarValue';

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

  it('writes the exact value rounded down, also where a double would round the other way', () => {
    const exact = (wei: bigint, price: MicroPrice) =>
      formatDecimalAmount(usdMicros(wei, price) as bigint, USD_DECIMALS);
    const positive = (bits: bigint) => fc.bigInt({ min: 1n, max: 2n ** bits });
    // Any amount and price: from dust to amounts past what a double holds, prices past a double's range included.
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 256n }), positive(1100n), positive(1100n), (wei, num, den) => {
        const price = { num, den };
        expect(usdText(wei, price)).toBe(exact(wei, price));
      }),
      { numRuns: 2000 },
    );
    // Values a hair either side of a whole number of micro-dollars, and whole ones: (k * d + offset) / d.
    fc.assert(
      fc.property(
        positive(200n),
        positive(60n),
        positive(80n),
        fc.integer({ min: -2, max: 2 }),
        (d, k, wei, offset) => {
          const price = { num: k * d + BigInt(offset), den: d * wei };
          expect(usdText(wei, price)).toBe(exact(wei, price));
        },
      ),
      { numRuns: 2000 },
    );
    expect(usdText(10n ** 18n, pairMicroPrice(BNB))).toBe('600');
    expect(usdText(1n, { num: 999_999n, den: 1n })).toBe('0.999999');
    expect(usdText(1n, { num: 10n ** 21n - 1n, den: 10n ** 6n })).toBe('999999999.999999');
  });
});
