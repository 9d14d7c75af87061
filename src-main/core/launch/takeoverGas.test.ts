import { describe, expect, it } from 'vitest';
import { launchGasLimit, takeoverGasAllowance } from './takeoverGas';

describe('takeoverGasAllowance', () => {
  it('covers every bitmap word of the tick range for the tier', () => {
    expect(takeoverGasAllowance(10000)).toBe(36n * 7_500n + 50_000n);
    expect(takeoverGasAllowance(2500)).toBe(140n * 7_500n + 50_000n);
    expect(takeoverGasAllowance(500)).toBe(695n * 7_500n + 50_000n);
  });

  it('keeps the launch within the transaction cap', () => {
    expect(launchGasLimit(7_000_000n, 10000, 16_777_216n)).toBe(7_320_000n);
    expect(launchGasLimit(7_000_000n, 100, 16_777_216n)).toBe(16_777_216n);
  });
});
