import { useEffect, useRef, useState } from 'react';
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

const IDLE: QuoteState = { quote: null, error: null, loading: false };

/**
 * The quote for what the form says, asked for once typing pauses. Only the answer to the latest input is shown: an
 * answer that comes back after the input changed is dropped. `amount` null means nothing to quote; bump `nonce` to
 * ask again for the same input (after a trade moved the price).
 */
export function useTokenQuote(
  token: Address,
  side: Side,
  exact: Exact,
  amount: string | null,
  slippageBps: number | null,
  nonce: number,
): QuoteState {
  const [state, setState] = useState<QuoteState>(IDLE);
  const latest = useRef(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: nonce asks again for the same input
  useEffect(() => {
    const id = ++latest.current;
    if (amount === null || slippageBps === null) {
      setState(IDLE);
      return;
    }
    setState((shown) => ({ ...shown, loading: true }));
    const timer = setTimeout(() => {
      fetchQuote({ token, side, exact, amount, slippageBps }).then(
        (quote) => {
          if (id === latest.current) setState({ quote, error: null, loading: false });
        },
        (cause: unknown) => {
          if (id === latest.current) setState({ quote: null, error: failureOf(cause), loading: false });
        },
      );
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [token, side, exact, amount, slippageBps, nonce]);

  return state;
}
