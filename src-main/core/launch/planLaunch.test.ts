import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors';
import { simulateSwap } from '../swap/simulateSwap';
import { siteFeeOn } from '../trade/siteFee';
import { type LaunchPlanInput, planLaunch } from './planLaunch';
import { SHAPE_PRESETS } from './shapes';

const ETHER = 10n ** 18n;

const input = (over: Partial<LaunchPlanInput> = {}): LaunchPlanInput => ({
  supplyWei: 1_000_000_000n * ETHER,
  capPairWei: 10n * ETHER,
  capField: 'marketCapPair',
  tokenIs0: true,
  feeTier: 10000,
  shape: undefined,
  firstBuy: 0n,
  slippagePct: 5,
  siteFeeBps: 100,
  launchFeeWei: 0n,
  native: true,
  ...over,
});

const codeOf = (run: () => unknown): { code: string; field?: string } | 'ok' => {
  try {
    run();
    return 'ok';
  } catch (error) {
    if (error instanceof ApiError) return { code: error.code, field: error.field };
    throw error;
  }
};

describe('planLaunch', () => {
  it('opens near the asked cap on the tier spacing and lays the whole supply, flat by default', () => {
    for (const tokenIs0 of [true, false]) {
      const plan = planLaunch(input({ tokenIs0 }));
      expect(plan.tickSpacing).toBe(200);
      expect(Math.abs(plan.opening.tick % 200)).toBe(0);
      // Ticks are about 2% apart on the 1% tier: the opening cap is within about 1% of the asked one.
      const drift = Number(plan.opening.capPairWei - 10n * ETHER) / Number(10n * ETHER);
      expect(Math.abs(drift)).toBeLessThan(0.011);
      expect(plan.ranges).toHaveLength(1);
      expect(plan.ranges[0]?.bps).toBe(10_000);
      // The range starts at the opening price and rises in the token's price: up the ticks as token0, down as token1.
      expect(tokenIs0 ? plan.ranges[0]?.tickLower : plan.ranges[0]?.tickUpper).toBe(plan.opening.tick);
      const laid = plan.layout.positions.reduce((sum, p) => sum + p.tokens, 0n) + plan.layout.residue;
      expect(laid).toBe(1_000_000_000n * ETHER);
      expect(plan.firstBuy).toBeNull();
      expect(plan.value).toBe(0n);
    }
  });

  it('takes a preset by name or ranges as sent, on the fee tier’s spacing', () => {
    const stepped = planLaunch(input({ shape: 'stepped', feeTier: 2500 }));
    expect(stepped.tickSpacing).toBe(50);
    expect(stepped.ranges.map((r) => r.bps)).toEqual(SHAPE_PRESETS.stepped.map((r) => r.bps));
    const custom = planLaunch(
      input({
        shape: [
          { fromPct: 0, toPct: 50, bps: 3000 },
          { fromPct: 50, toPct: 100, bps: 7000 },
        ],
      }),
    );
    expect(custom.ranges.map((r) => r.bps)).toEqual([3000, 7000]);
    expect(custom.ranges[0]?.tickUpper).toBe(custom.ranges[1]?.tickLower);
  });

  it('quotes the first buy against the fresh pool after the site fee, with the slippage floor', () => {
    const firstBuy = ETHER;
    const plan = planLaunch(input({ firstBuy, slippagePct: 2.5, launchFeeWei: 7n }));
    const fee = siteFeeOn(firstBuy, 100);
    const quote = simulateSwap(plan.layout.pool, false, firstBuy - fee);
    expect(plan.firstBuy).toEqual({
      spend: firstBuy,
      siteFee: fee,
      expectedTokens: quote.amountOut,
      minTokens: (quote.amountOut * 9750n) / 10_000n,
    });
    // BNB pays the launch fee and the first buy with the transaction; another pair only the fee.
    expect(plan.value).toBe(7n + firstBuy);
    expect(planLaunch(input({ firstBuy, launchFeeWei: 7n, native: false })).value).toBe(7n);
  });

  it('refuses what the caller’s numbers make impossible, naming the field', () => {
    expect(codeOf(() => planLaunch(input({ firstBuy: 1n })))).toEqual({ code: 'AMOUNT_TOO_SMALL', field: 'firstBuy' });
    expect(codeOf(() => planLaunch(input({ supplyWei: ETHER, firstBuy: 10n ** 68n })))).toEqual({
      code: 'POOL_TOO_THIN',
      field: 'firstBuy',
    });
    expect(codeOf(() => planLaunch(input({ capPairWei: 10n ** 80n })))).toMatchObject({ code: 'INVALID_LAUNCH' });
    expect(
      codeOf(() => planLaunch(input({ capField: 'marketCapUsd', capPairWei: (2n ** 160n * ETHER) / 600n }))),
    ).toMatchObject({ code: 'INVALID_LAUNCH', field: 'marketCapUsd' });
    expect(codeOf(() => planLaunch(input({ supplyWei: ETHER, capPairWei: 10n ** 56n, shape: 'stepped' })))).toEqual({
      code: 'SHAPE_BELOW_LADDER',
      field: 'shape',
    });
  });
});
