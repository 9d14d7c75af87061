import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env';
import { appTokenSent } from '../intentCallerOf';

/**
 * Marks a request from the app's own page (`appPage`): the one that sent the run's token in x-app-token. The token is
 * the page's alone (the address the app printed, or main's IPC inside Electron): a bot on the same machine does not
 * have it, and a page on another origin cannot send the header at all. A wrong token here only earns no budget of its
 * own (a tab left open across a restart still reads); the routes that act on the token refuse it (sentByApp).
 */
export function appPage(appToken: string | undefined): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (appTokenSent(c, appToken) === 'app') c.set('appPage', true);
    await next();
  };
}
