import autocannon from 'autocannon';

export interface AutocannonLoad {
  /** A loopback http:// URL. */
  url: string;
  /** Requests in flight at once, one per kept-alive connection. */
  connections: number;
  durationS: number;
  /**
   * Paths (with their queries) sent in turn on each connection, in place of the URL's own: built once, as autocannon
   * builds each request's bytes once, where rewriting every request cost the generator more than the server spent.
   */
  paths?: readonly string[];
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
  const { paths } = load;
  const result = await autocannon({
    url: load.url,
    connections: load.connections,
    duration: load.durationS,
    ...(paths ? { requests: paths.map((path) => ({ method: 'GET', path })) } : {}),
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
