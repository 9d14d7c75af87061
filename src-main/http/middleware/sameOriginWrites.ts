import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../../core/errors';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The origin of a page this server served, as a browser sends it in Origin: http:// and the Host the page was loaded
 * from ("127.0.0.1:8787" -> "http://127.0.0.1:8787"). The Host is a loopback name by then (hostCheck).
 */
export function ownOrigin(host: string | undefined): string {
  return `http://${(host ?? '').trim().toLowerCase()}`;
}

/**
 * Refuses a write sent by a page on another origin (ORIGIN_NOT_ALLOWED). A browser names the page's origin in Origin
 * on every cross-origin request and on same-origin writes, and a page cannot forge it; "null" (a sandboxed frame, a
 * file:// page, a redirect) is not ours either. Bots send no Origin and are let through: the app's own pages, in the
 * browser and in Electron's window alike, are loaded from this server, so their writes carry its origin.
 */
export function sameOriginWrites(): MiddlewareHandler {
  return async (c, next) => {
    const origin = c.req.header('origin');
    if (WRITES.has(c.req.method) && origin !== undefined) {
      const own = ownOrigin(c.req.header('host'));
      if (origin.trim().toLowerCase() !== own) {
        throw new ApiError(
          'ORIGIN_NOT_ALLOWED',
          `a write from ${origin.slice(0, 100)} is refused: only ${own} may write`,
          {
            fix: `Use the app's own pages at ${own}/; a bot sends no Origin header.`,
          },
        );
      }
    }
    await next();
  };
}
