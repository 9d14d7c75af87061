import { TRADE_SLIPPAGE } from '../../src-shared/schema/quote';

/** The service's fixed rules for trades and launches (the spec's testnet values), shown in `GET /settings`. */
export const LIMITS = {
  tradeDeadlineSeconds: 1200,
  permitDays: 30,
  // The request schemas' own figures (src-shared/schema/quote.ts), so GET /settings says what a build takes.
  maxSlippageBps: TRADE_SLIPPAGE.maxBps,
  minSlippageBps: TRADE_SLIPPAGE.minBps,
  defaultSlippageBps: TRADE_SLIPPAGE.defaultBps,
} as const;

/** PancakeSwap V3's fee tiers with their tick spacings; 1% is the default for launches. */
export const FEE_TIERS = [
  { bps: 100, label: '0.01%', tickSpacing: 1 },
  { bps: 500, label: '0.05%', tickSpacing: 10 },
  { bps: 2500, label: '0.25%', tickSpacing: 50 },
  { bps: 10000, label: '1%', tickSpacing: 200 },
] as const;

export const DEFAULT_FEE_TIER = 10000;
/** Whole tokens minted when a launch does not say. */
export const DEFAULT_SUPPLY = 1_000_000_000n;
