import { describe, expect, it } from 'vitest';
import { sqrt } from './sqrt';

describe('sqrt', () => {
  it('is the floor of the square root', () => {
    for (const n of [0n, 1n, 2n, 3n, 4n, 15n, 16n, 17n, 10n ** 36n - 1n, 10n ** 36n, 2n ** 255n]) {
      const r = sqrt(n);
      expect(r * r <= n).toBe(true);
      expect((r + 1n) * (r + 1n) > n).toBe(true);
    }
  });
  it('refuses negatives', () => {
    expect(() => sqrt(-1n)).toThrow(RangeError);
  });
});
