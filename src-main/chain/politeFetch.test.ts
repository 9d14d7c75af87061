import { describe, expect, it, vi } from 'vitest';
import { lineLogger } from '../log/createLogger';
import { politeFetch, retryAfterMs } from './politeFetch';

/** A fetch that answers the given statuses in turn (the last one for ever), recording when each request came. */
function scripted(statuses: number[], retryAfter: string | null = '0') {
  const times: number[] = [];
  const fake = (async () => {
    times.push(Date.now());
    const status = statuses[Math.min(times.length - 1, statuses.length - 1)] as number;
    return new Response('{}', { status, headers: retryAfter === null ? {} : { 'retry-after': retryAfter } });
  }) as unknown as typeof fetch;
  return { fake, times };
}

describe('retryAfterMs', () => {
  it('reads seconds and HTTP dates, and nothing else', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(retryAfterMs('soon')).toBeNull();
    expect(retryAfterMs(null)).toBeNull();
  });
});

describe('politeFetch', () => {
  it('waits out 429s and answers what the RPC answers once it lets the request through', async () => {
    const { fake, times } = scripted([429, 429, 200]);
    const lines: string[] = [];
    const answer = await politeFetch({ fetch: fake, backoffMs: 20, log: lineLogger((l) => lines.push(l)) })(
      'http://rpc',
    );
    expect(answer.status).toBe(200);
    expect(times).toHaveLength(3);
    expect(lines.length).toBeGreaterThan(0);
  });

  it('holds every request back while the RPC asked for a pause', async () => {
    // On the test's own clock: a machine under load cannot make the pause look shorter or longer than it is.
    vi.useFakeTimers();
    try {
      const { fake, times } = scripted([429, 200], '1');
      const polite = politeFetch({ fetch: fake });
      const first = polite('http://rpc');
      await vi.advanceTimersByTimeAsync(50);
      const second = polite('http://rpc');
      await vi.advanceTimersByTimeAsync(900);
      // Within the second the first 429 asked for, nothing else went out: not its retry, not the new request.
      expect(times).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(100);
      expect((await second).status).toBe(200);
      expect((await first).status).toBe(200);
      expect(times).toHaveLength(3);
      for (const at of times.slice(1)) expect(at - (times[0] as number)).toBeGreaterThanOrEqual(1000);
    } finally {
      vi.useRealTimers();
    }
  });

  it('gives the 429 back when waiting would take longer than allowed', async () => {
    const { fake } = scripted([429], '5');
    const answer = await politeFetch({ fetch: fake, maxWaitMs: 1000 })('http://rpc');
    expect(answer.status).toBe(429);
  });

  it('stops waiting when the request is aborted', async () => {
    const { fake } = scripted([429, 200], '5');
    const controller = new AbortController();
    const pending = politeFetch({ fetch: fake })('http://rpc', { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('timed out')), 50);
    await expect(pending).rejects.toThrow('timed out');
  });
});
