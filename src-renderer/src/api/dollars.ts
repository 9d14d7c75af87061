import { useQuery } from '@tanstack/react-query';
import { formatUnits } from 'viem';
import type { MarketDollars } from '../../../src-shared/appChannelTypes';
import { appChannelAvailable, invoke } from '../wallet/appChannel';
import { queryClient } from './queryClient';
import type { TokenTrades } from './tokens';

/** Dollar prices move with the WBNB/USDT pool; read again this often while something shows them. */
const DOLLARS_REFRESH_MS = 30_000;

const dollarsQuery = {
  queryKey: ['app', 'dollars'],
  queryFn: () => invoke<MarketDollars>('market.dollars'),
  staleTime: DOLLARS_REFRESH_MS,
  enabled: appChannelAvailable,
} as const;

/** Dollars per whole unit of a currency by its address (BNB by wrapped BNB's), or null without a price. */
export type UsdPerUnit = (address: string) => number | null;

function lookup(dollars: MarketDollars | undefined): UsdPerUnit {
  return (address) =>
    dollars?.currencies.find((c) => c.address.toLowerCase() === address.toLowerCase())?.usdPerUnit ?? null;
}

/**
 * The service's dollar prices of the listed pair currencies (BNB, USDT), for the dollar value beside every amount.
 * A page opened without the app's token cannot ask main, and shows amounts without dollars.
 */
export function useDollars(): { usdPerUnit: UsdPerUnit; ready: boolean } {
  const query = useQuery({ ...dollarsQuery, refetchInterval: DOLLARS_REFRESH_MS });
  return { usdPerUnit: lookup(query.data), ready: query.data !== undefined };
}

/**
 * The same prices outside a component (the review, built while an action runs), launched tokens included when the
 * app has read their market (token price × the pair's dollar price); no prices rather than a failure.
 */
export async function dollarsNow(): Promise<UsdPerUnit> {
  if (!appChannelAvailable) return () => null;
  let listed: UsdPerUnit;
  try {
    listed = lookup(await queryClient.fetchQuery(dollarsQuery));
  } catch {
    return () => null;
  }
  return (address) => listed(address) ?? tokenUsd(address, listed);
}

/** A token's price in dollars from the pool price and the pair's dollar price; null without one. */
export function priceUsd(priceWei: string | bigint, pairDecimals: number, pairUsd: number | null): number | null {
  if (pairUsd === null) return null;
  return Number(formatUnits(BigInt(priceWei), pairDecimals)) * pairUsd;
}

/** A launched token's dollar price from its market as last read (the token page polls it), or null. */
function tokenUsd(address: string, listed: UsdPerUnit): number | null {
  const [, trades] =
    queryClient
      .getQueriesData<TokenTrades>({ queryKey: ['token'] })
      .find(([key, data]) => key[2] === 'trades' && String(key[1]).toLowerCase() === address.toLowerCase() && data) ??
    [];
  if (!trades) return null;
  const { priceWei, pair } = trades.market;
  return priceUsd(priceWei, pair.decimals, listed(pair.address));
}
