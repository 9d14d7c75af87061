import { useQuery } from '@tanstack/react-query';
import { failureOf } from '../failureOf';
import type { WalletFailure } from '../wallet/walletStore';

/** A key per load function: the pages memoize `load` on its inputs, so a new function is new data to load. */
const keys = new WeakMap<() => Promise<unknown>, number>();
let lastKey = 0;

function keyOf(load: () => Promise<unknown>): number {
  let key = keys.get(load);
  if (key === undefined) {
    key = ++lastKey;
    keys.set(load, key);
  }
  return key;
}

/**
 * Loads what a page shows, again every `pollMs` when given (never two reads at once), keeping the last good answer
 * while a later one fails. `load` should be stable (wrap it in useCallback): a new function means new data to load,
 * and an answer to the old one is never shown for it; null loads nothing.
 */
export function useLoaded<T>(load: (() => Promise<T>) | null, pollMs?: number) {
  const query = useQuery({
    queryKey: ['loaded', load ? keyOf(load) : 0],
    queryFn: () => (load as () => Promise<T>)(),
    enabled: load !== null,
    refetchInterval: pollMs ?? false,
    retry: false,
  });
  const failure: WalletFailure | null = query.error ? failureOf(query.error) : null;
  const reload = async () => {
    await query.refetch();
  };
  return { data: query.data ?? null, failure, reload };
}
