import type { LaunchFacts } from '../review/LaunchSummary';
import type { LaunchBuildAnswer } from './launchApi';
import type { ShapeRange } from './shapePresets';
import { rangeCapsText } from './shapeScale';

/**
 * The build answer in a trader's terms for the review: `ranges` are the shape the launch asked for (the answer names
 * only its kind), laid from the cap the token really opens at, in dollars where the pair has a price.
 */
export function launchFactsOf(
  build: LaunchBuildAnswer,
  ranges: readonly ShapeRange[],
  prices: { pairUsd: number | null; bnbUsd: number | null },
): LaunchFacts {
  const { opening } = build;
  const scale =
    opening.marketCapUsd !== null
      ? { cap: opening.marketCapUsd, unit: '$' }
      : { cap: opening.marketCapPair, unit: build.pair.symbol };
  const supply = BigInt(build.supply.wei);
  return {
    name: build.name,
    symbol: build.symbol,
    pair: { symbol: build.pair.symbol, decimals: build.pair.decimals, usdPerUnit: prices.pairUsd },
    cap: { pair: opening.marketCapPair, usd: opening.marketCapUsd, driftPct: opening.driftFromAskedPct },
    ranges: ranges.map((range, index) => ({
      caps: rangeCapsText(range, index === ranges.length - 1, scale),
      sharePct: range.bps / 100,
    })),
    supplyWei: build.supply.wei,
    firstBuy: build.firstBuy
      ? {
          spendWei: build.firstBuy.spend.wei,
          minTokensWei: build.firstBuy.minTokens.wei,
          // Hundredths of a basis point are exact enough for a share to four digits.
          pctOfSupply: supply > 0n ? Number((BigInt(build.firstBuy.minTokens.wei) * 1_000_000n) / supply) / 10_000 : 0,
          splitAmong: build.firstBuyTo?.length ?? 0,
        }
      : null,
    gas: { maxWei: build.cost.maxWei, bnbUsd: prices.bnbUsd },
    launchFeeWei: build.launchFee.wei,
    royalty: build.royalty.explain,
  };
}
