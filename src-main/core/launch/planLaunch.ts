import { ApiError } from '../errors';
import { FEE_TIERS } from '../limits';
import { simulateSwap } from '../swap/simulateSwap';
import { siteFeeOn } from '../trade/siteFee';
import { type LaunchLayout, layOut } from './layOut';
import { type Opening, openingTick } from './openingTick';
import { readShape, type ShapeRange, shapeTicks, type TickRange } from './shapes';

export interface LaunchPlanInput {
  /** The whole supply, in the token's wei. */
  supplyWei: bigint;
  /** The asked opening cap, in the pair's wei. */
  capPairWei: bigint;
  /** The body field the cap was asked in, named by errors about it. */
  capField: 'marketCapUsd' | 'marketCapPair';
  /** Whether the token sorts before the pair (it is the pool's token0): decided by the token's address. */
  tokenIs0: boolean;
  feeTier: number;
  /** A preset's name, custom ranges, or undefined for flat. */
  shape: string | readonly ShapeRange[] | undefined;
  /** The first buy in the pair's wei (site fee included); 0 for none. */
  firstBuy: bigint;
  slippagePct: number;
  siteFeeBps: number;
  launchFeeWei: bigint;
  /** Whether the pair is BNB, so the first buy is paid with the transaction's value. */
  native: boolean;
}

export interface FirstBuyPlan {
  /** What is spent, site fee included. */
  spend: bigint;
  siteFee: bigint;
  /** Tokens the first buy gets from the fresh pool. */
  expectedTokens: bigint;
  /** The fewest tokens accepted, after slippage. */
  minTokens: bigint;
}

export interface LaunchPlan {
  opening: Opening;
  tickSpacing: number;
  ranges: TickRange[];
  layout: LaunchLayout;
  /** Null without a first buy. */
  firstBuy: FirstBuyPlan | null;
  /** BNB sent with the launch: its fee, and the first buy when the pair is BNB. */
  value: bigint;
}

/**
 * Decides a launch from its parsed request and the facts already read (the token's side of the pair, fees): the
 * opening tick for the asked cap, the shape's ticks, the liquidity each range takes, and the first buy quoted
 * against the fresh pool exactly as the factory will swap it. No I/O.
 *
 * @example
 * planLaunch({ supplyWei: 10n ** 27n, capPairWei: 10n ** 19n, capField: 'marketCapPair', tokenIs0: true,
 *   feeTier: 10000, shape: 'flat', firstBuy: 0n, slippagePct: 5, siteFeeBps: 100, launchFeeWei: 0n, native: true })
 */
export function planLaunch(input: LaunchPlanInput): LaunchPlan {
  const { supplyWei, tokenIs0, feeTier, firstBuy } = input;
  const tickSpacing = FEE_TIERS.find((t) => t.bps === feeTier)?.tickSpacing ?? 200;
  let opening: Opening;
  try {
    opening = openingTick({ capPairWei: input.capPairWei, supplyWei, tokenIs0, tickSpacing });
  } catch {
    throw invalid('marketCapPair', 'the market cap is beyond the prices a pool can hold for this supply');
  }
  const ranges = shapeTicks(readShape(input.shape), opening.tick, tokenIs0, tickSpacing);
  let layout: LaunchLayout;
  try {
    layout = layOut(supplyWei, ranges, opening, tokenIs0, feeTier, tickSpacing);
  } catch (error) {
    // A cap so high that a range's liquidity overflows a pool position: the caller's numbers, not our fault.
    if (!(error instanceof RangeError)) throw error;
    throw invalid(input.capField, `the supply cannot be laid out at this market cap: ${error.message}`);
  }
  return {
    opening,
    tickSpacing,
    ranges,
    layout,
    firstBuy: firstBuy > 0n ? planFirstBuy(input, layout) : null,
    value: input.launchFeeWei + (input.native ? firstBuy : 0n),
  };
}

/** The first buy is a trade: the factory takes the site fee from it, as the router does from an exact-in buy. */
function planFirstBuy(input: LaunchPlanInput, layout: LaunchLayout): FirstBuyPlan {
  const spend = input.firstBuy;
  const siteFee = siteFeeOn(spend, input.siteFeeBps);
  if (spend <= siteFee) {
    throw new ApiError('AMOUNT_TOO_SMALL', 'the first buy would leave nothing after the site fee', {
      field: 'firstBuy',
    });
  }
  const quote = simulateSwap(layout.pool, !input.tokenIs0, spend - siteFee);
  if (!quote.filled) {
    // More than buying the whole supply up to the highest price the pool can hold would cost.
    throw new ApiError('POOL_TOO_THIN', 'the fresh pool cannot fill a first buy this large in one trade', {
      field: 'firstBuy',
      fix: 'Send a smaller firstBuy, or launch a larger supply.',
    });
  }
  if (quote.amountOut === 0n) {
    throw new ApiError('AMOUNT_TOO_SMALL', 'the first buy would get no tokens from the fresh pool', {
      field: 'firstBuy',
    });
  }
  const minTokens = (quote.amountOut * BigInt(10_000 - Math.round(input.slippagePct * 100))) / 10_000n;
  return { spend, siteFee, expectedTokens: quote.amountOut, minTokens };
}

function invalid(field: string, message: string): ApiError {
  return new ApiError('INVALID_LAUNCH', message, { field });
}
