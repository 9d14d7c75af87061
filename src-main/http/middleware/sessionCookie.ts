import type { MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { ApiError } from '../../core/errors';
import { SESSION_COOKIE } from '../../services/sessions';
import type { AppEnv } from '../env';

/**
 * Reads the sign-in cookie, and refuses any request that carries it without `x-mm-csrf: 1` (CSRF_REQUIRED), reads
 * included, as the spec words it: a page on another site cannot set that header on a request it makes the browser
 * send, so what it makes the browser ask, while signed in, is refused before it is answered. The session itself is
 * checked by the endpoints that act on it.
 */
export function sessionCookie(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const secret = getCookie(c, SESSION_COOKIE);
    if (secret !== undefined) {
      if (c.req.header('x-mm-csrf') !== '1') {
        throw new ApiError('CSRF_REQUIRED', 'a signed-in request must carry the header x-mm-csrf: 1', {
          fix: 'Send the header x-mm-csrf: 1 with every request while signed in, reads included.',
        });
      }
      c.set('sessionSecret', secret);
    }
    await next();
  };
}
