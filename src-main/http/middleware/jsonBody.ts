import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../../core/errors';
import { readCapped } from '../../core/readCapped';
import type { AppEnv } from '../env';
import { describeContentType, mediaType } from '../mediaType';

/** Largest JSON body the API reads. A launch, the largest request, is a few kilobytes. */
export const JSON_BODY_LIMIT = 64 * 1024;

const JSON_TYPE = 'application/json';

function tooLarge(): ApiError {
  return new ApiError('BODY_TOO_LARGE', `the request body is over ${JSON_BODY_LIMIT} bytes`, {
    fix: `Send a JSON body of at most ${JSON_BODY_LIMIT} bytes.`,
  });
}

/**
 * INVALID_BODY unless the request declares a JSON body: the one check of every JSON write, /rpc's too. A page on
 * another origin can make a browser send text/plain, a form or multipart without asking first, never JSON.
 */
export function requireJsonType(contentType: string | undefined): void {
  if (mediaType(contentType) === JSON_TYPE) return;
  throw new ApiError('INVALID_BODY', `the body is sent with ${describeContentType(contentType)}; only JSON is read`, {
    fix: `Send the JSON object with the header Content-Type: ${JSON_TYPE}.`,
  });
}

/**
 * Reads every POST and PUT body as JSON, with the size limit, and keeps it for the route's validator. Only a body sent as
 * `application/json` is read: a page on another site can make a browser send `text/plain` or a form without asking
 * first, but not JSON. Bodies that are not JSON or not an object are refused here, before any route logic runs. A
 * DELETE takes no body; one that sends a body must declare it JSON too. A PUT is read as a POST when it has a body.
 */
export function jsonBody({ skip = [] }: { skip?: readonly string[] } = {}): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const hasBody = Number(c.req.header('content-length') ?? '0') > 0 || c.req.header('transfer-encoding');
    if (c.req.method === 'DELETE') {
      if (hasBody) requireJsonType(c.req.header('content-type'));
      return next();
    }
    // A PUT without a body (starring a creator) has nothing to read; the route's schema says whether it needs one.
    if (c.req.method === 'PUT' && !hasBody) return next();
    // Paths that take a raw body of their own (image uploads) read it themselves.
    if ((c.req.method !== 'POST' && c.req.method !== 'PUT') || skip.includes(c.req.path)) return next();
    requireJsonType(c.req.header('content-type'));
    const declared = c.req.header('content-length');
    if (declared !== undefined && Number(declared) > JSON_BODY_LIMIT) throw tooLarge();
    const text = new TextDecoder().decode(await readCapped(c.req.raw.body, JSON_BODY_LIMIT, tooLarge, false));
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
    // The route's validator reads the body with c.req.json(), from this text: the stream is read already.
    c.req.bodyCache.text = Promise.resolve(text) as unknown as string;
    await next();
  };
}
