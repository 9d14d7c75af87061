import { requestJson } from './getJson';

/** POSTs a JSON body, declared as JSON, and returns the JSON answer; any failure is thrown as an ApiRequestError. */
export function postJson<T>(url: string, body: unknown, headers: Record<string, string> = {}): Promise<T> {
  return requestJson<T>(url, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** DELETEs without a body (so with no Content-Type) and returns the JSON answer. */
export function deleteJson<T>(url: string, headers: Record<string, string> = {}): Promise<T> {
  return requestJson<T>(url, { method: 'DELETE', headers });
}
