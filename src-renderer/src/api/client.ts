import { createCompanion } from '../../../clients/ts/src/index';
import { appRunToken } from '../wallet/appChannel';
import { apiBase } from './apiBase';
import { ApiRequestError, isApiError } from './apiRequestError';
import { CSRF_HEADER } from './csrfHeader';

/** Browser sign-in lives beside the v1 API, at /api/auth (the document's /challenge and /session name it too). */
export const authBase = apiBase.replace(/\/v1$/, '/auth');

/** The header with which the app's page proves it is the app (the run's token); the service names it so too. */
const APP_TOKEN_HEADER = 'x-app-token';

/** The run's token, asked for once (over IPC inside Electron); null on a page opened without it. */
let runToken: Promise<string | null> | undefined;

/**
 * The wire, read in one place: an unreachable service and a success that is not JSON become ApiRequestErrors here,
 * where the URL is known. `fetch` is looked up per call, not captured once, so a test's or extension's wrapper counts.
 * Every request carries the run's token when the page has it: prepared requests and key budgets answer the app by it,
 * and the service counts the page's quotes and builds in a budget of its own that bots on the machine cannot spend.
 */
async function fetchAnswer(request: Request): Promise<Response> {
  runToken ??= appRunToken();
  const token = await runToken;
  if (token) request.headers.set(APP_TOKEN_HEADER, token);
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
