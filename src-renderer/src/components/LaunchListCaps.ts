import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { TokenMarket } from '../api/tokens';
import { fetchTokenTrades } from '../api/tokens';

/** How long a market cap is shown before it is read again (when its row is on screen). */
const FRESH_MS = 30_000;

/**
 * A row's market cap, read only once the row is on screen: a long list asks for the caps people can see, not for
 * every launch. Rows of the same token share one read, fresh for FRESH_MS; a failed read is not kept. Returns the
 * callback ref to put on the row.
 */
export function useLaunchMarket(token: string): {
  ref: (element: Element | null) => void;
  market: TokenMarket | null;
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

  const query = useQuery({
    queryKey: ['token', token, 'market'],
    queryFn: async () => (await fetchTokenTrades(token, 1)).market,
    enabled: visible,
    staleTime: FRESH_MS,
    retry: false,
  });

  return { ref: setElement, market: query.data ?? null, failed: query.isError };
}
