import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../../core/errors';

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * The host name of a Host header without its port ("[::1]:8787" -> "[::1]"), or undefined when the header is not a
 * host with an optional numeric port ("[::1].evil.com" and "127.0.0.1:80.evil.com" are not).
 */
function hostName(host: string): string | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::\d{1,5})?$/.exec(host.trim().toLowerCase());
  return match?.[1];
}

/** Whether a Host header names this machine's loopback: the one test of `hostCheck`, shared by the lean routes. */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_NAMES.has(hostName(host) ?? '');
}

/**
 * Answers only requests addressed to a loopback name. A web page on another site can make a browser send requests to
 * 127.0.0.1 through a DNS name it controls (DNS rebinding); such requests carry that name in Host and are refused.
 */
export function hostCheck(): MiddlewareHandler {
  return async (c, next) => {
    const host = c.req.header('host') ?? '';
    if (!isLoopbackHost(host)) {
      throw new ApiError(
        'ORIGIN_NOT_ALLOWED',
        `Host "${host}" is not a loopback name; this server answers only on 127.0.0.1`,
        {
          fix: 'Address the server as 127.0.0.1, localhost or [::1].',
        },
      );
    }
    await next();
  };
}
