import autocannon from 'autocannon';

export interface AutocannonLoad {
  /** A loopback http:// URL. */
  url: string;
  /** Requests in flight at once, one per kept-alive connection. */
  connections: number;
  durationS: number;
  /** The path (with its query) of the n-th request of this load (0-based); the URL's own path when absent. */
  pathOf?: (n: number) => string;
}

export interface AutocannonResult {
  requests: number;
  elapsedMs: number;
  latencyP50Ms: number;
  non2xx: number;
  /** Connection errors and timeouts. */
  errors: number;
  /** Count by status code. */
  statuses: Record<string, number>;
}

/**
 * Closed-loop GET load by autocannon, which parses answers with a lean HTTP parser of its own: Node's http client, the
 * generator before it, spent more CPU per request than a bare node:http server spends answering one, so on 2 cores it
 * was the bottleneck of every figure it produced.
 */
export async function autocannonLoad(load: AutocannonLoad): Promise<AutocannonResult> {
  const target = new URL(load.url);
  if (target.protocol !== 'http:' || !['127.0.0.1', 'localhost', '[::1]'].includes(target.hostname)) {
    throw new Error(`load is only sent to loopback http URLs, not ${load.url}`);
  }
  const { pathOf } = load;
  let n = 0;
  const result = await autocannon({
    url: load.url,
    connections: load.connections,
    duration: load.durationS,
    ...(pathOf ? { requests: [{ setupRequest: (request) => ({ ...request, path: pathOf(n++) }) }] } : {}),
  });
  const statuses: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats)) statuses[code] = Number(count);
  return {
    requests: Number(result.requests.total),
    elapsedMs: result.duration * 1000,
    latencyP50Ms: result.latency.p50,
    non2xx: result.non2xx,
    errors: result.errors,
    statuses,
  };
}
