import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { type AppChannel, AppChannelError, type AppChannelFailure } from '../services/appChannel';

export const APP_CHANNEL_BASE = '/app';
/** Inputs are small (a transaction, a message); a larger body is refused before it is parsed. */
const MAX_BODY_BYTES = 300 * 1024;

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * The headless app's channel to main (what IPC is inside Electron): `POST /app/<operation>` with a JSON body. It is
 * not the API: it signs, so it answers only the app's own page, which holds the per-run token from the address the
 * person opened (`#app=<token>`), and only from the server's own origin. Bots on loopback do not have the token.
 */
export function appChannelRoute(app: Hono, channel: AppChannel, token: string, origin: () => string): void {
  const expected = digest(token);
  const fail = (c: Context, status: 400 | 401 | 403 | 404 | 413 | 415 | 422, failure: AppChannelFailure) =>
    c.json({ error: failure }, status);

  app.post(`${APP_CHANNEL_BASE}/:operation`, async (c) => {
    const sentOrigin = c.req.header('origin');
    if (sentOrigin !== undefined && sentOrigin !== origin()) {
      return fail(c, 403, {
        code: 'ORIGIN_NOT_ALLOWED',
        message: `The app channel answers only the app's own page, not ${sentOrigin.slice(0, 100)}.`,
        fix: `Open ${origin()}/ with the address the app printed.`,
      });
    }
    const bearer = /^Bearer (\S+)$/.exec(c.req.header('authorization') ?? '')?.[1] ?? '';
    // Compared as digests: equal lengths for timingSafeEqual, and no early exit that leaks how much matched.
    if (!timingSafeEqual(digest(bearer), expected)) {
      return fail(c, 401, {
        code: 'APP_TOKEN_REQUIRED',
        message: 'The app channel needs the token of this run.',
        fix: 'Open the web UI with the address the app printed when it started (it ends in #app=...).',
      });
    }
    if (!(c.req.header('content-type') ?? '').toLowerCase().startsWith('application/json')) {
      return fail(c, 415, {
        code: 'INVALID_INPUT',
        message: 'Send a JSON body.',
        fix: 'Set Content-Type: application/json.',
      });
    }
    const length = Number(c.req.header('content-length') ?? '0');
    if (length > MAX_BODY_BYTES) {
      return fail(c, 413, { code: 'INVALID_INPUT', message: 'The body is too large.', fix: 'Send one operation.' });
    }
    const text = await c.req.text();
    if (text.length > MAX_BODY_BYTES) {
      return fail(c, 413, { code: 'INVALID_INPUT', message: 'The body is too large.', fix: 'Send one operation.' });
    }
    let input: unknown;
    try {
      input = text === '' ? {} : JSON.parse(text);
    } catch {
      return fail(c, 400, { code: 'INVALID_INPUT', message: 'The body is not JSON.', fix: 'Send a JSON object.' });
    }
    try {
      const result = await channel.invoke(c.req.param('operation'), input);
      return c.json({ result: result ?? null });
    } catch (cause) {
      if (cause instanceof AppChannelError) {
        const status = cause.failure.code === 'UNKNOWN_OPERATION' ? 404 : 422;
        return fail(c, status, cause.failure);
      }
      throw cause;
    }
  });
}
