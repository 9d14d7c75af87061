import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { ApiError } from '../core/errors';
import type { IntentCaller } from '../services/intentCaller';
import type { Sessions } from '../services/sessions';
import type { AppEnv } from './env';

/**
 * The header with which the app's own UI proves it is the app: the run's token, which the headless page holds from
 * the address the app printed (`#app=<token>`) and the desktop window from main. A page on another origin has neither,
 * and cannot send a custom header without a CORS preflight this server never grants.
 */
export const APP_TOKEN_HEADER = 'x-app-token';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** What a request's x-app-token says: `app` with the run's token, `other` with another value, `none` without it. */
export function appTokenSent(c: Context, appToken: string | undefined): 'app' | 'other' | 'none' {
  const sentToken = c.req.header(APP_TOKEN_HEADER);
  if (sentToken === undefined) return 'none';
  // Compared as digests: equal lengths for timingSafeEqual, and no early exit that leaks how much matched.
  return appToken !== undefined && timingSafeEqual(digest(sentToken), digest(appToken)) ? 'app' : 'other';
}

/**
 * Whether the request comes from the app itself: true with the run's token in x-app-token, false without the header;
 * a wrong token is refused (API_KEY_REQUIRED) rather than read as no token.
 */
export function sentByApp(c: Context, appToken: string | undefined): boolean {
  const sent = appTokenSent(c, appToken);
  if (sent !== 'other') return sent === 'app';
  throw new ApiError('API_KEY_REQUIRED', `${APP_TOKEN_HEADER} is not the token of this run of the app`, {
    fix: `Leave out ${APP_TOKEN_HEADER} and send an API key in x-api-key; the app's own window sends its token itself.`,
  });
}

/**
 * Who is asking, from the request's credentials: the run's token in x-app-token, else a live key (already checked by
 * the apiKey middleware), else the sign-in cookie, which counts only with `x-mm-csrf: 1` (a page elsewhere can make the
 * browser send the cookie, never the header). A wrong app token is refused rather than read as no credentials.
 */
export function intentCallerOf(c: Context<AppEnv>, sessions: Sessions, appToken: string | undefined): IntentCaller {
  if (sentByApp(c, appToken)) return { kind: 'app' };
  const key = c.get('apiKey');
  if (key) return { kind: 'key', key };
  const secret = c.get('sessionSecret');
  if (secret !== undefined) {
    if (c.req.header('x-mm-csrf') !== '1') {
      throw new ApiError('CSRF_REQUIRED', 'a signed-in request for prepared requests must carry x-mm-csrf: 1', {
        fix: 'Send the header x-mm-csrf: 1 with every signed-in request, reads included.',
      });
    }
    return { kind: 'session', wallet: sessions.get(secret).wallet };
  }
  return { kind: 'none' };
}
