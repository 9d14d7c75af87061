/** An API failure as the spec shapes it: `{ error: { code, message, fix } }`. */
export interface ApiError {
  code: string;
  message: string;
  fix?: string;
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
export async function getJson<T>(url: string): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { accept: 'application/json' } });
  } catch {
    throw new ApiRequestError({
      code: 'UNREACHABLE',
      message: `Could not reach the service at ${url}.`,
      fix: 'Check that the companion service is running, then retry.',
    });
  }
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
