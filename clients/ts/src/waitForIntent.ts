import { CompanionError } from './companionError';
import type { CompanionApi } from './createCompanion';
import type { Intent } from './createIntent';
import { getIntent } from './getIntent';
import { sleep } from './sleep';

export interface WaitOptions {
  /**
   * What to wait for: `settled` (the default) until the request is confirmed or failed (rejected by the person, or
   * reverted); `sent` until its transaction's hash is known too.
   */
  until?: 'sent' | 'settled';
  /** Time between two reads (1 s by default). */
  intervalMs?: number;
  /** How long to wait before a CompanionError TIMEOUT (10 minutes by default). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

const DONE: Record<'sent' | 'settled', readonly Intent['state'][]> = {
  sent: ['sent', 'confirmed', 'failed'],
  settled: ['confirmed', 'failed'],
};

/**
 * Polls GET /intents/{id} until the person's outcome: the request confirmed on chain, or failed with a `reason`.
 * A retryable error (RATE_LIMITED, INTENTS_UNAVAILABLE, UNREACHABLE …) waits and reads again; any other is thrown.
 *
 * @example const { state, reason } = await waitForIntent(companion.api, intent.id);
 */
export async function waitForIntent(api: CompanionApi, id: string, options: WaitOptions = {}): Promise<Intent> {
  const { until = 'settled', intervalMs = 1_000, timeoutMs = 10 * 60_000, signal } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    signal?.throwIfAborted();
    let wait = intervalMs;
    try {
      const intent = await getIntent(api, id);
      if (DONE[until].includes(intent.state)) return intent;
    } catch (error) {
      if (!(error instanceof CompanionError) || !error.retry) throw error;
      wait = Math.max(intervalMs, error.retry.afterMs);
    }
    if (Date.now() + wait > deadline) {
      throw new CompanionError({
        status: null,
        code: 'TIMEOUT',
        message: `The prepared request ${id} was not ${until} within ${Math.round(timeoutMs / 1000)} s.`,
        fix: 'Wait again, or look at the request in the app.',
        retry: { afterMs: 0 },
      });
    }
    await sleep(wait, signal);
  }
}
