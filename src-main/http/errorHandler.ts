import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ApiError } from '../core/errors';
import { describeCauses } from '../core/serviceError';
import type { Logger } from '../log/createLogger';

/**
 * Turns anything thrown while answering into the spec's Error object. Our own errors keep their code; anything else
 * is INTERNAL, logged with its cause chain. The caller sees only the code, message, fix and field: never a cause or a
 * stack trace.
 */
export function errorHandler(log: Logger) {
  return (error: Error, c: Context) => {
    let apiError: ApiError;
    if (error instanceof ApiError) {
      apiError = error;
    } else if (error instanceof HTTPException && error.status === 413) {
      apiError = new ApiError('BODY_TOO_LARGE', 'the request body is over the limit');
    } else if (error instanceof HTTPException && /JSON/i.test(error.message)) {
      apiError = new ApiError('INVALID_JSON', 'the body is not valid JSON');
    } else {
      apiError = new ApiError('INTERNAL', 'the server failed while answering; nothing was sent', { cause: error });
    }
    if (apiError.code === 'INTERNAL') {
      // The whole chain, down to what the node, the disk or the device said: the log is where a cause is read.
      log.error(
        `INTERNAL ${c.req.method} ${c.req.path}: ${describeCauses(apiError === error ? error : apiError.cause)}`,
      );
    } else if (apiError.cause !== undefined) {
      log.warn(
        `${apiError.code} ${c.req.method} ${c.req.path}: ${String((apiError.cause as Error)?.message ?? apiError.cause)}`,
      );
    }
    if (apiError.retry) c.header('Retry-After', String(apiError.retryAfterSeconds ?? 5));
    // The rest of an oversized body is never read, so the connection cannot carry another request.
    if (apiError.code === 'BODY_TOO_LARGE') c.header('Connection', 'close');
    return c.json(apiError.toBody(), apiError.status as ContentfulStatusCode);
  };
}

export function notFound(c: Context) {
  return c.json(
    new ApiError('NOT_FOUND', `there is no endpoint ${c.req.method} ${c.req.path}`).toBody(),
    404 as ContentfulStatusCode,
  );
}
