import { CSRF_HEADER } from './csrfHeader';

/** An API failure as the spec shapes it: `{ error: { code, message, fix } }`. */
export interface ApiError {
  code: string;
  message: string;
  fix?: string;
  field?: string;
  detail?: unknown;
}

export class ApiRequestError extends Error {
  constructor(readonly error: ApiError) {
    super(error.message);
    this.name = 'ApiRequestError';
  }
}

function isApiError(value: unknown): value is ApiError {
  if (typeof value !== 'object' || value === null) return false;
  const { code, message } = value as Record<string, unknown>;
  return typeof code === 'string' && typeof message === 'string';
}

/** GETs `url` and returns its JSON body; any failure is thrown as an ApiRequestError. */
export function getJson<T>(url: string): Promise<T> {
  return requestJson<T>(url, {});
}

/**
 * Sends a request with the CSRF header and reads its JSON answer; an unreachable service is thrown as an
 * ApiRequestError too. A request with a body must name its Content-Type: the service reads no other.
 */
export async function requestJson<T>(url: string, init: RequestInit): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, {
      ...init,
      headers: { accept: 'application/json', ...CSRF_HEADER, ...(init.headers ?? {}) },
    });
  } catch {
    throw new ApiRequestError({
      code: 'UNREACHABLE',
      message: `Could not reach the service at ${url}.`,
      fix: 'Check that the companion service is running, then retry.',
    });
  }
  return readAnswer<T>(url, response);
}

/** The JSON of an answer, or its spec error thrown as an ApiRequestError. */
export async function readAnswer<T>(url: string, response: Response): Promise<T> {
  const body: unknown = await response.json().catch(() => undefined);
  if (response.ok) {
    if (body !== undefined) return body as T;
    throw new ApiRequestError({ code: 'BAD_RESPONSE', message: `The service's answer to ${url} is not JSON.` });
  }
  const error = (body as { error?: unknown } | undefined)?.error;
  throw new ApiRequestError(
    isApiError(error)
      ? error
      : { code: `HTTP_${response.status}`, message: `The service answered ${response.status} ${response.statusText}.` },
  );
}
