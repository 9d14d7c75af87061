import type { MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { ApiError } from '../../core/errors';
import { SESSION_COOKIE } from '../../services/sessions';
import type { AppEnv } from '../env';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Reads the sign-in cookie, and refuses a write that carries it without `x-mm-csrf: 1` (CSRF_REQUIRED): a page on
 * another site cannot set that header on a request it makes the browser send. The session itself is checked by the
 * endpoints that act on it.
 */
export function sessionCookie(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const secret = getCookie(c, SESSION_COOKIE);
    if (secret !== undefined) {
      if (WRITES.has(c.req.method) && c.req.header('x-mm-csrf') !== '1') {
        throw new ApiError('CSRF_REQUIRED', 'a signed-in write must carry the header x-mm-csrf: 1', {
          fix: 'Send the header x-mm-csrf: 1 with every request that changes something while signed in.',
        });
      }
      c.set('sessionSecret', secret);
    }
    await next();
  };
}
