import { useQuery } from '@tanstack/react-query';
import { priceUsd, useDollars } from '../api/dollars';
import { launchMarketQuery } from './LaunchListCaps';

/** The market moves with every trade; the token page's own trades poll is faster, this only prices amounts. */
const MARKET_REFRESH_MS = 15_000;

/**
 * Dollars per whole unit of the token and of its pair, for the dollar value beside amounts: the token's from its
 * market price (pair per token) times the pair's dollar price. Null where there is no price (or no token).
 */
export function useTokenUsd(
  token: string | null,
  pair: { address: string; decimals: number } | null,
): { tokenUsd: number | null; pairUsd: number | null } {
  const { usdPerUnit } = useDollars();
  // The token page's and the launches list's own read of the token's market: one cache entry, one poll, not two.
  const market = useQuery({
    ...launchMarketQuery(token ?? ''),
    select: (answer) => answer.market,
    refetchInterval: MARKET_REFRESH_MS,
    enabled: token !== null,
  });
  if (pair === null) return { tokenUsd: null, pairUsd: null };
  const pairUsd = usdPerUnit(pair.address);
  const priceWei = market.data?.priceWei;
  const tokenUsd = priceWei === undefined ? null : priceUsd(priceWei, pair.decimals, pairUsd);
  return { tokenUsd, pairUsd };
}
