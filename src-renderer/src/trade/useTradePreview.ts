import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Address } from 'viem';
import type { ApiError } from '../api/apiRequestError';
import { buildTrade, type TradeAsk, type TradeBuild } from '../api/tokens';
import { failureOf } from '../failureOf';

/** A preview's gas price and approvals stay right for a while; the build made on Buy is always fresh. */
const PREVIEW_STALE_MS = 20_000;

export interface TradePreview {
  error: ApiError | null;
  /** The approvals to send before the trade (none once they are in place). */
  steps: TradeBuild['requires'];
  /** The gas of every transaction of the trade at most, approvals included, in BNB wei. */
  networkFeeWei: bigint | null;
  loading: boolean;
}

/** The network fee of the whole action: the trade's gas ceiling plus each approval's gas, at the build's gas price. */
export function networkFeeOf(build: TradeBuild): bigint {
  const gasPrice = BigInt(build.cost.gasPriceWei);
  const stepsGas = build.requires.reduce((sum, step) => sum + BigInt(step.tx.gas ?? 0), 0n);
  return BigInt(build.cost.maxWei) + stepsGas * gasPrice;
}

/**
 * The trade built for the signer's wallet ahead of the click, only to show what it will cost and how many
 * confirmations it takes; nothing is signed or sent from it. `ask` null (nothing quoted yet, or the wallet is short)
 * builds nothing, so an over-balance trade never reaches the service's build.
 */
export function useTradePreview(ask: TradeAsk | null, wallet: Address | null, referrer: Address | null): TradePreview {
  const enabled = ask !== null && wallet !== null;
  const query = useQuery({
    queryKey: ['token', ask?.token, 'preview', wallet, ask, referrer],
    queryFn: () => buildTrade(wallet as Address, ask as TradeAsk, referrer),
    enabled,
    staleTime: PREVIEW_STALE_MS,
    placeholderData: keepPreviousData,
    retry: false,
  });
  if (!enabled) return { error: null, steps: [], networkFeeWei: null, loading: false };
  const build = query.data ?? null;
  return {
    error: query.error ? failureOf(query.error) : null,
    steps: build?.requires ?? [],
    networkFeeWei: build ? networkFeeOf(build) : null,
    loading: query.isFetching,
  };
}
