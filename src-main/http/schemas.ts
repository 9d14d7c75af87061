import { ErrorBodySchema } from '../../src-shared/schema/common';

/*
 * The API's schemas live in src-shared/schema, one module per area, so the renderer and the inspector read the wire
 * with the same ones, their OpenAPI facts in .meta().
 */

/**
 * Statuses any route may answer, whatever it does: 401 for a bad or revoked x-api-key (the spec: on every endpoint),
 * 403 for a request from a page of another site or a signed-in one without x-mm-csrf, 500 for a server-side failure,
 * and 503 when an x-api-key cannot be checked (keys off, or unreadable).
 */
const ANY_ROUTE = [401, 403, 500, 503];

/** What a 403 means on every operation, whatever else the operation refuses with it. */
const FORBIDDEN_ANYWHERE =
  'Error object. On every operation, reads included: ORIGIN_NOT_ALLOWED for a request a browser sent for a page of ' +
  'another origin (Sec-Fetch-Site cross-site or same-site, or an Origin that is neither this server nor a browser ' +
  'extension; bots send neither), and CSRF_REQUIRED for a signed-in request without x-mm-csrf: 1.';

/** Error responses a route documents, by status, all with the one Error object: its own, and ANY_ROUTE's. */
export function errorResponses(...statuses: number[]) {
  return Object.fromEntries(
    [...new Set([...statuses, ...ANY_ROUTE])]
      .sort((a, b) => a - b)
      .map((status) => [
        status,
        {
          description: status === 403 ? FORBIDDEN_ANYWHERE : 'Error object',
          content: { 'application/json': { schema: ErrorBodySchema } },
        },
      ]),
  );
}
