import { describe, expect, it } from 'vitest';
import { grossForNet, maxPayFor, minReceiveFor, referrerCutOf, siteFeeOn } from './siteFee';

describe('site fee arithmetic (as TradeRouter.sol)', () => {
  it('rounds the fee up, never more than one wei above the exact rate', () => {
    expect(siteFeeOn(1n, 100)).toBe(1n);
    expect(siteFeeOn(100n, 100)).toBe(1n);
    expect(siteFeeOn(101n, 100)).toBe(2n);
    expect(siteFeeOn(10n ** 18n, 100)).toBe(10n ** 16n);
    expect(siteFeeOn(5000n * 10n ** 18n, 100)).toBe(50n * 10n ** 18n);
    expect(siteFeeOn(12345n, 0)).toBe(0n);
  });

  it('finds the smallest gross whose net covers the asked amount', () => {
    expect(grossForNet(1n, 100)).toBe(2n);
    for (const net of [1n, 99n, 10n ** 18n, 123456789012345678901n]) {
      const gross = grossForNet(net, 100);
      // gross is the least whole amount with gross · (1 − 1%) ≥ net.
      expect(gross * 9900n >= net * 10000n).toBe(true);
      expect((gross - 1n) * 9900n < net * 10000n).toBe(true);
    }
  });

  it('pays the referrer a floored cut, never more than the fee', () => {
    expect(referrerCutOf(10n ** 18n, 20, 10n ** 16n)).toBe(2n * 10n ** 15n);
    expect(referrerCutOf(101n, 20, 2n)).toBe(0n);
    expect(referrerCutOf(1000n, 300, 2n)).toBe(2n);
  });

  it('sets the limit from the slippage, rounding against the trader by at most one wei', () => {
    expect(minReceiveFor(10000n, 50)).toBe(9950n);
    expect(minReceiveFor(1n, 50)).toBe(0n);
    expect(maxPayFor(10000n, 50)).toBe(10050n);
    expect(maxPayFor(1n, 50)).toBe(2n);
    expect(maxPayFor(10n ** 18n, 5000)).toBe(15n * 10n ** 17n);
  });
});
