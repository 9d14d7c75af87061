import { createCompanion } from '../../../clients/ts/src/index';
import { apiBase } from './apiBase';
import { ApiRequestError, isApiError } from './apiRequestError';
import { CSRF_HEADER } from './csrfHeader';

/** Browser sign-in lives beside the v1 API, at /api/auth (the document's /challenge and /session name it too). */
export const authBase = apiBase.replace(/\/v1$/, '/auth');

/**
 * The wire, read in one place: an unreachable service and a success that is not JSON become ApiRequestErrors here,
 * where the URL is known. `fetch` is looked up per call, not captured once, so a test's or extension's wrapper counts.
 */
async function fetchAnswer(request: Request): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(request);
  } catch {
    throw new ApiRequestError({
      code: 'UNREACHABLE',
      message: `Could not reach the service at ${request.url}.`,
      fix: 'Check that the companion service is running, then retry.',
    });
  }
  if (!response.ok) return response;
  const text = await response.text();
  try {
    JSON.parse(text);
  } catch {
    throw new ApiRequestError({ code: 'BAD_RESPONSE', message: `The service's answer to ${request.url} is not JSON.` });
  }
  return new Response(text, response);
}

/**
 * The API, typed by the service's own OpenAPI document: the client package's (clients/ts), so bots and this page use
 * one generated client. Every request, reads included, carries the CSRF header (see csrfHeader.ts); a request with a
 * body is sent as JSON unless it names its own Content-Type. The page keeps its own wire reading (fetchAnswer) and
 * error type (ApiRequestError, through answerOf), which its screens show.
 */
export const api = createCompanion({ baseUrl: apiBase, headers: CSRF_HEADER, fetch: fetchAnswer }).api;

/**
 * The answer's data, or its spec error thrown as an ApiRequestError (HTTP_<status> when the body is not one).
 *
 * @example const token = await answerOf(api.GET('/tokens/{address}', { params: { path: { address } } }));
 */
export async function answerOf<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok) return data as T;
  const spec = (error as { error?: unknown } | undefined)?.error;
  throw new ApiRequestError(
    isApiError(spec)
      ? spec
      : { code: `HTTP_${response.status}`, message: `The service answered ${response.status} ${response.statusText}.` },
  );
}
