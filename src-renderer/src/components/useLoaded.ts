import { useCallback, useEffect, useState } from 'react';
import { failureOf } from '../failureOf';
import type { WalletFailure } from '../wallet/walletStore';

/**
 * Loads what a page shows, again every `pollMs` when given, keeping the last good answer while a later one fails.
 * `load` should be stable (wrap it in useCallback): a new function means new data to load; null loads nothing.
 */
export function useLoaded<T>(load: (() => Promise<T>) | null, pollMs?: number) {
  const [data, setData] = useState<T | null>(null);
  const [failure, setFailure] = useState<WalletFailure | null>(null);
  const reload = useCallback(async () => {
    if (!load) return;
    try {
      setData(await load());
      setFailure(null);
    } catch (cause) {
      setFailure(failureOf(cause));
    }
  }, [load]);
  useEffect(() => {
    if (!load) return;
    void reload();
    if (!pollMs) return;
    const timer = setInterval(() => void reload(), pollMs);
    return () => clearInterval(timer);
  }, [load, reload, pollMs]);
  return { data, failure, reload };
}
