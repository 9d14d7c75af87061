import { describe, expect, it } from 'vitest';
import { getSqrtRatioAtTick } from '../math/tickMath';
import { pairValueOf } from '../swap/pairValueOf';
import { openingTick } from './openingTick';

const SUPPLY = 10n ** 27n;

/** |ln(a / b)| in a float: for judging which of two caps is nearer an asked one, not for money. */
const logDistance = (a: bigint, b: bigint) => Math.abs(Math.log(Number(a) / Number(b)));

describe('openingTick', () => {
  for (const spacing of [1, 10, 50, 200]) {
    for (const tokenIs0 of [true, false]) {
      it(`opens at the usable tick nearest the asked cap (spacing ${spacing}, token${tokenIs0 ? 0 : 1})`, () => {
        let above = 0;
        let below = 0;
        // Caps from 0.5 to about 5,000 pair units, in uneven steps so they fall everywhere between ticks.
        for (let i = 0; i < 400; i++) {
          const capPairWei = (10n ** 17n * 5n * BigInt(1000 + i * 2477)) / 1000n;
          const opening = openingTick({ capPairWei, supplyWei: SUPPLY, tokenIs0, tickSpacing: spacing });
          expect(Math.abs(opening.tick % spacing)).toBe(0);
          const capAt = (tick: number) => pairValueOf(SUPPLY, getSqrtRatioAtTick(tick), tokenIs0);
          const distance = logDistance(opening.capPairWei, capPairWei);
          // No usable neighbour is nearer, and the drift is at most half a spacing of ticks (1.0001 per tick).
          for (const neighbour of [opening.tick - spacing, opening.tick + spacing]) {
            expect(distance).toBeLessThanOrEqual(logDistance(capAt(neighbour), capPairWei) + 1e-12);
          }
          expect(distance).toBeLessThanOrEqual((spacing / 2) * Math.log(1.0001) + 1e-9);
          if (opening.capPairWei >= capPairWei) above++;
          else below++;
        }
        // Nearest means either side: a rule that always rounds one way would fail here.
        expect(above).toBeGreaterThan(50);
        expect(below).toBeGreaterThan(50);
      });
    }
  }

  it('refuses a cap no pool price can express', () => {
    expect(() => openingTick({ capPairWei: 0n, supplyWei: SUPPLY, tokenIs0: true, tickSpacing: 200 })).toThrow(
      RangeError,
    );
    expect(() => openingTick({ capPairWei: 10n ** 70n, supplyWei: 1n, tokenIs0: true, tickSpacing: 200 })).toThrow(
      RangeError,
    );
  });
});
