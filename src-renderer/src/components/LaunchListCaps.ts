import { useEffect, useState } from 'react';
import type { TokenMarket } from '../api/tokens';
import { fetchTokenTrades } from '../api/tokens';

/** How long a market cap is shown before it is read again (when its row is on screen). */
const FRESH_MS = 30_000;

const cache = new Map<string, { at: number; market: Promise<TokenMarket> }>();

/** The token's market, read at most once per FRESH_MS however many rows show it; failures are not kept. */
function marketOf(token: string): Promise<TokenMarket> {
  const cached = cache.get(token);
  if (cached && Date.now() - cached.at < FRESH_MS) return cached.market;
  const market = fetchTokenTrades(token, 1).then((answer) => answer.market);
  cache.set(token, { at: Date.now(), market });
  market.catch(() => cache.delete(token));
  return market;
}

/**
 * A row's market cap, read only once the row is on screen: a long list asks for the caps people can see, not for
 * every launch. Returns the callback ref to put on the row.
 */
export function useLaunchMarket(token: string): {
  ref: (element: Element | null) => void;
  market: TokenMarket | null;
  failed: boolean;
} {
  const [element, setElement] = useState<Element | null>(null);
  const [visible, setVisible] = useState(false);
  const [market, setMarket] = useState<TokenMarket | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (!element) return;
    const observer = new IntersectionObserver((entries) => setVisible(entries.some((entry) => entry.isIntersecting)));
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);

  useEffect(() => {
    if (!visible) return;
    let current = true;
    marketOf(token).then(
      (answer) => {
        if (!current) return;
        setMarket(answer);
        setFailed(false);
      },
      () => {
        if (current) setFailed(true);
      },
    );
    return () => {
      current = false;
    };
  }, [token, visible]);

  return { ref: setElement, market, failed };
}
