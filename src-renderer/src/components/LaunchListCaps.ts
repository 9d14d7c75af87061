import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { fetchTokenTrades, type TokenTrades } from '../api/tokens';
import { TRADES_READ, tradesQueryKey } from './tokenDayStats';

/** How long a row's market is shown before it is read again (when its row is on screen). */
export const FRESH_MS = 30_000;

/** The read of a token's latest trades and market, as a row, the sorted list and the token page share it. */
export function launchMarketQuery(token: string) {
  return {
    queryKey: tradesQueryKey(token),
    queryFn: () => fetchTokenTrades(token, TRADES_READ),
    staleTime: FRESH_MS,
    retry: false,
  };
}

/**
 * A row's market (cap, price, and the trades its 24 h figures come from), read only once the row is on screen: a
 * long list asks for the rows people can see, not for every launch (unless `always`, for a list sorted by them). Rows
 * of the same token share one read, fresh for FRESH_MS; a failed read is not kept. Returns the callback ref to put on
 * the row.
 */
export function useLaunchMarket(
  token: string,
  always = false,
): {
  ref: (element: Element | null) => void;
  answer: TokenTrades | null;
  failed: boolean;
} {
  const [element, setElement] = useState<Element | null>(null);
  const [visible, setVisible] = useState(false);

  useEffect(() => {
    if (!element) return;
    const observer = new IntersectionObserver((entries) => setVisible(entries.some((entry) => entry.isIntersecting)));
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);

  const query = useQuery({ ...launchMarketQuery(token), enabled: visible || always });
  return { ref: setElement, answer: query.data ?? null, failed: query.isError };
}
