/**
 * A request with a string body sent as JSON, as the API reads only bodies declared `application/json`; a
 * Content-Type the caller gives wins, so tests can still send others on purpose.
 */
export function jsonInit(init: RequestInit = {}): RequestInit {
  if (typeof init.body !== 'string') return init;
  return { ...init, headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) } };
}
