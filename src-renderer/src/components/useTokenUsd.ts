import { useQuery } from '@tanstack/react-query';
import { useDollars } from '../api/dollars';
import { fetchTokenTrades } from '../api/tokens';

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
  const market = useQuery({
    queryKey: ['token', token, 'market'],
    queryFn: async () => (await fetchTokenTrades(token as string, 1)).market,
    refetchInterval: MARKET_REFRESH_MS,
    enabled: token !== null,
  });
  if (pair === null) return { tokenUsd: null, pairUsd: null };
  const pairUsd = usdPerUnit(pair.address);
  const priceWei = market.data?.priceWei;
  // Display only: a float of the price is exact enough for a dollar value beside an amount.
  const tokenUsd =
    pairUsd === null || priceWei === undefined ? null : (Number(priceWei) / 10 ** pair.decimals) * pairUsd;
  return { tokenUsd, pairUsd };
}
