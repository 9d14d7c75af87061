import { useCallback, useState } from 'react';
import type { ApiError } from '../api/apiRequestError';
import { failureOf } from '../failureOf';

/**
 * One action a control starts (a switch, a star, a form's save): `busy` while it runs, its `failure` as the page shows
 * errors (cleared when it runs again). `run` resolves to whether it succeeded, and never throws.
 */
export function useBusyAction(): {
  busy: boolean;
  failure: ApiError | null;
  run(action: () => Promise<unknown>): Promise<boolean>;
} {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const run = useCallback(async (action: () => Promise<unknown>) => {
    setBusy(true);
    setFailure(null);
    try {
      await action();
      return true;
    } catch (cause) {
      setFailure(failureOf(cause));
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, failure, run };
}
