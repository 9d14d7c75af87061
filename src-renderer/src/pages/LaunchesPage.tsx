import { useEffect, useRef, useState } from 'react';
import type { ApiError } from '../api/apiRequestError';
import { fetchLaunches, type LaunchListItem } from '../api/launches';
import { ErrorPanel } from '../components/ErrorPanel';
import { LaunchList } from '../components/LaunchList';
import { failureOf } from '../failureOf';

const POLL_MS = 3000;

/** `newer` (newest first) put before `shown`, leaving out any token already listed. */
function prepend(newer: LaunchListItem[], shown: LaunchListItem[]): LaunchListItem[] {
  const seen = new Set(shown.map((launch) => launch.token));
  const added: LaunchListItem[] = [];
  for (const launch of newer) {
    if (seen.has(launch.token)) continue;
    seen.add(launch.token);
    added.push(launch);
  }
  return added.length > 0 ? [...added, ...shown] : shown;
}

/**
 * The live list of launches: the newest page first, then every few seconds whatever launched since, by the `next`
 * cursor the API hands out (kept when an answer is empty, so nothing is skipped or repeated).
 */
export function LaunchesPage() {
  const [launches, setLaunches] = useState<LaunchListItem[] | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const [attempt, setAttempt] = useState(0);
  /** The block to ask after; undefined until the first page is in. */
  const cursor = useRef<number | undefined>(undefined);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a retry restarts the polling loop at once
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const after = cursor.current;
        const page = await fetchLaunches(after);
        if (stopped) return;
        // Polling answers come oldest first; the list shows newest first.
        const newer = after === undefined ? page.launches : [...page.launches].reverse();
        // An empty first page has no cursor to keep: polling then starts from the beginning of the chain.
        cursor.current = page.next ?? after ?? 0;
        setLaunches((shown) => prepend(newer, shown ?? []));
        setError(null);
      } catch (cause) {
        if (stopped) return;
        setError(failureOf(cause));
      }
      setNow(Date.now());
      timer = setTimeout(() => void poll(), POLL_MS);
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [attempt]);

  return (
    <>
      <h2>Launches</h2>
      {error && (
        <ErrorPanel
          title={launches ? 'Could not check for new launches' : 'Could not load the launches'}
          error={error}
          onRetry={() => setAttempt((n) => n + 1)}
        />
      )}
      {!launches && !error && (
        <p className="muted" data-testid="launches-loading">
          Loading…
        </p>
      )}
      {launches && <LaunchList launches={launches} now={now} />}
    </>
  );
}
