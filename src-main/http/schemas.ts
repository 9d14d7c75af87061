import { ErrorBodySchema } from '../../src-shared/schema/common';

/*
 * The API's schemas live in src-shared/schema, one module per area, so the renderer and the inspector read the wire
 * with the same ones, their OpenAPI facts in .meta().
 */

/** Error responses a route documents, by status, all with the one Error object. */
export function errorResponses(...statuses: number[]) {
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      { description: 'Error object', content: { 'application/json': { schema: ErrorBodySchema } } },
    ]),
  );
}
