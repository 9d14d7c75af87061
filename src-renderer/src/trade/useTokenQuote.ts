import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { Address } from 'viem';
import type { ApiError } from '../api/apiRequestError';
import { type Exact, fetchQuote, type Side, type TradeQuote } from '../api/tokens';
import { failureOf } from '../failureOf';

/** How long typing must pause before a quote is asked for. */
const DEBOUNCE_MS = 250;

export interface QuoteState {
  quote: TradeQuote | null;
  error: ApiError | null;
  /** True while a newer quote is on its way (what is shown may be for the previous input). */
  loading: boolean;
}

/**
 * The quote for what the form says, asked for once typing pauses. The input is the query's key, so an answer is
 * only ever shown for the input it was asked for; while the next one is on its way the previous answer stays, marked
 * `loading`. `amount` null means nothing to quote; bump `nonce` to ask again for the same input (after a trade moved
 * the price).
 */
export function useTokenQuote(
  token: Address,
  side: Side,
  exact: Exact,
  amount: string | null,
  slippageBps: number | null,
  nonce: number,
): QuoteState {
  const input = amount === null || slippageBps === null ? null : { token, side, exact, amount, slippageBps, nonce };
  const inputKey = JSON.stringify(input);
  const [asked, setAsked] = useState(input);
  const askedKey = JSON.stringify(asked);

  // biome-ignore lint/correctness/useExhaustiveDependencies: inputKey stands for input, which is new on every render
  useEffect(() => {
    if (input === null) {
      setAsked(null);
      return;
    }
    const timer = setTimeout(() => setAsked(input), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [inputKey]);

  const query = useQuery({
    queryKey: ['token', token, 'quote', asked],
    queryFn: () => {
      const { nonce: _, ...ask } = asked as NonNullable<typeof asked>;
      return fetchQuote(ask);
    },
    enabled: asked !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });

  if (input === null) return { quote: null, error: null, loading: false };
  const loading = askedKey !== inputKey || query.isFetching;
  if (query.error) return { quote: null, error: failureOf(query.error), loading };
  return { quote: query.data ?? null, error: null, loading };
}
