import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ApiError } from '../core/errors';
import { describeCauses } from '../core/serviceError';
import type { Logger } from '../log/createLogger';

/** What the API answers for a failure: the status, the headers beside Content-Type, and the spec's Error object. */
export interface ErrorAnswer {
  status: number;
  headers: Record<string, string>;
  body: ReturnType<ApiError['toBody']>;
}

/**
 * Turns anything thrown while answering `method path` into the spec's Error object, and logs it. Our own errors keep
 * their code; anything else is INTERNAL, logged with its cause chain. The caller sees only the code, message, fix and
 * field: never a cause or a stack trace. Shared by the Hono app's error handler and the lean routes in front of it, so
 * a failure is answered one way whichever path met it.
 */
export function errorAnswer(error: unknown, method: string, path: string, log: Logger): ErrorAnswer {
  let apiError: ApiError;
  if (error instanceof ApiError) {
    apiError = error;
  } else if (error instanceof HTTPException && error.status === 413) {
    apiError = new ApiError('BODY_TOO_LARGE', 'the request body is over the limit');
  } else if (error instanceof HTTPException && error.status === 415) {
    // A route whose body is required, met without a JSON one (a PUT sent with no body, or as text/plain).
    apiError = new ApiError('INVALID_BODY', 'the body is missing or not sent as JSON; a JSON object is needed', {
      fix: 'Send the JSON object with the header Content-Type: application/json.',
    });
  } else if (error instanceof HTTPException && /JSON/i.test(error.message)) {
    apiError = new ApiError('INVALID_JSON', 'the body is not valid JSON');
  } else {
    apiError = new ApiError('INTERNAL', 'the server failed while answering; nothing was sent', { cause: error });
  }
  if (apiError.code === 'INTERNAL') {
    // The whole chain, down to what the node, the disk or the device said: the log is where a cause is read.
    log.error(`INTERNAL ${method} ${path}: ${describeCauses(apiError === error ? error : apiError.cause)}`);
  } else if (apiError.cause !== undefined) {
    log.warn(`${apiError.code} ${method} ${path}: ${String((apiError.cause as Error)?.message ?? apiError.cause)}`);
  }
  const headers: Record<string, string> = {};
  if (apiError.retry) headers['Retry-After'] = String(apiError.retryAfterSeconds ?? 5);
  if (apiError.headers) Object.assign(headers, apiError.headers);
  // The rest of an oversized body is never read, so the connection cannot carry another request.
  if (apiError.code === 'BODY_TOO_LARGE') headers.Connection = 'close';
  return { status: apiError.status, headers, body: apiError.toBody() };
}

/** The Hono app's error handler: every failure answered as `errorAnswer` says. */
export function errorHandler(log: Logger) {
  return (error: Error, c: Context) => {
    const answer = errorAnswer(error, c.req.method, c.req.path, log);
    for (const [name, value] of Object.entries(answer.headers)) c.header(name, value);
    return c.json(answer.body, answer.status as ContentfulStatusCode);
  };
}

export function notFound(c: Context) {
  return c.json(
    new ApiError('NOT_FOUND', `there is no endpoint ${c.req.method} ${c.req.path}`).toBody(),
    404 as ContentfulStatusCode,
  );
}
