import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ApiError } from '../../core/errors';
import type { AppEnv } from '../env';

/** Largest JSON body the API reads. A launch, the largest request, is a few kilobytes. */
export const JSON_BODY_LIMIT = 64 * 1024;

const limit = bodyLimit({
  maxSize: JSON_BODY_LIMIT,
  onError: () => {
    throw new ApiError('BODY_TOO_LARGE', `the request body is over ${JSON_BODY_LIMIT} bytes`, {
      fix: `Send a JSON body of at most ${JSON_BODY_LIMIT} bytes.`,
    });
  },
});

/**
 * Reads every POST body as JSON (whatever its Content-Type says, so bots that forget the header still work), with
 * the size limit, and stores the parsed object for the route. Bodies that are not JSON or not an object are refused
 * here, before any route logic runs.
 */
export function jsonBody({ skip = [] }: { skip?: readonly string[] } = {}): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // Paths that take a raw body of their own (image uploads) read it themselves.
    if (c.req.method !== 'POST' || skip.includes(c.req.path)) return next();
    await limit(c, async () => {
      const text = await c.req.text();
      if (text.trim() === '') throw new ApiError('INVALID_BODY', 'the body is empty; a JSON object is needed');
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (error) {
        throw new ApiError('INVALID_JSON', `the body is not valid JSON: ${(error as Error).message}`);
      }
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
        const kind = parsed === null ? 'null' : Array.isArray(parsed) ? 'an array' : `a ${typeof parsed}`;
        throw new ApiError('INVALID_BODY', `the body is ${kind}, not a JSON object`);
      }
      c.set('body', parsed as Record<string, unknown>);
      await next();
    });
  };
}
