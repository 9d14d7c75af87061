/**
 * The part of autocannon 8's programmatic API that bench/loadMix.ts and bench/autocannonLoad.ts use: the package ships no types and
 * @types/autocannon is not a dependency.
 */
declare module 'autocannon' {
  export interface Options {
    url: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
    /** Seconds to wait for an answer before counting a timeout. */
    timeout?: number;
    method?: 'GET' | 'POST';
    headers?: Record<string, string>;
    body?: string;
    /** Requests sent in turn on each connection (built once each); `setupRequest` rewrites one before each send. */
    requests?: (RequestShape & { setupRequest?: (request: RequestShape) => RequestShape })[];
  }

  export interface RequestShape {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }

  /** hdr-histogram-percentiles-obj: latency in ms, requests in req/s. */
  export interface Histogram {
    average: number;
    min: number;
    max: number;
    p50: number;
    p90: number;
    p99: number;
  }

  export interface Result {
    requests: Histogram & { total: number };
    latency: Histogram;
    /** Seconds. */
    duration: number;
    /** Connection errors, timeouts included. */
    errors: number;
    timeouts: number;
    non2xx: number;
    /** Answers with a 2xx status. */
    '2xx': number;
    /** Counts by status code; autocannon 8 stores numbers although its README shows strings. */
    statusCodeStats: Record<string, { count: number | string }>;
  }

  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
