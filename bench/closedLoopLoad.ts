import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';

export interface LoadOptions {
  /** Must be a loopback http:// URL. */
  url: string;
  /** Requests in flight at once, each on its own kept-alive connection. */
  connections: number;
  durationMs: number;
  /** Stops early after this many requests, so a surprisingly fast server cannot run away with memory. */
  maxRequests: number;
  /** A request slower than this is abandoned and counted as an error. */
  timeoutMs?: number;
}

export interface LoadResult {
  requests: number;
  elapsedMs: number;
  /** Latency of every completed request (any status), in ms. */
  latenciesMs: number[];
  /** Answers whose status was not 200. */
  non200: number;
  /** Requests that got no answer: connection errors and timeouts. */
  errors: number;
  firstFailure?: string;
}

/**
 * Closed-loop GET load: each connection sends its next request as soon as the previous answer has been read in full,
 * until the time or the request budget runs out. Latency is measured from sending to the last byte of the body.
 */
export async function closedLoopLoad(options: LoadOptions): Promise<LoadResult> {
  const target = new URL(options.url);
  if (target.protocol !== 'http:' || !['127.0.0.1', 'localhost', '[::1]'].includes(target.hostname)) {
    throw new Error(`load is only sent to loopback http URLs, not ${options.url}`);
  }
  const timeoutMs = options.timeoutMs ?? 10_000;
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const result: LoadResult = { requests: 0, elapsedMs: 0, latenciesMs: [], non200: 0, errors: 0 };
  const started = performance.now();
  const deadline = started + options.durationMs;
  let issued = 0;

  const once = () =>
    new Promise<void>((resolve) => {
      const sent = performance.now();
      // A connection dropped mid-body reports on both the request and the response; count it once.
      let settled = false;
      const fail = (reason: string) => {
        if (settled) return;
        settled = true;
        result.errors++;
        result.firstFailure ??= reason;
        resolve();
      };
      const req = request(target, { agent, method: 'GET', timeout: timeoutMs }, (res) => {
        res.on('data', () => {});
        res.on('error', (error) => fail(error.message));
        res.on('end', () => {
          if (settled) return;
          settled = true;
          result.latenciesMs.push(performance.now() - sent);
          if (res.statusCode !== 200) {
            result.non200++;
            result.firstFailure ??= `status ${res.statusCode}`;
          }
          resolve();
        });
      });
      req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      req.on('error', (error) => fail(error.message));
      req.end();
    });

  const worker = async () => {
    while (performance.now() < deadline && issued < options.maxRequests) {
      issued++;
      await once();
      result.requests++;
    }
  };
  try {
    await Promise.all(Array.from({ length: options.connections }, worker));
  } finally {
    agent.destroy();
  }
  result.elapsedMs = performance.now() - started;
  return result;
}
