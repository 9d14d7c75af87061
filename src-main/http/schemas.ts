// Loaded for its effect: it gives zod's schemas made from here on their .openapi().
import '@hono/zod-openapi';
import { ErrorBodySchema, AddressSchema as SharedAddressSchema } from '../../src-shared/schema/common';

/*
 * The API's schemas live in src-shared/schema, one module per area, so the renderer and the inspector read the wire
 * with the same ones, their OpenAPI facts in .meta().
 */

/**
 * The shared AddressSchema for the routes that still call `.openapi()` on it (launch, media). zod 4 gives each schema
 * its methods when it is made, so one made before @hono/zod-openapi extended zod has no `.openapi`: this copy is made
 * after, whatever the process loaded first.
 */
export const AddressSchema = SharedAddressSchema.meta({});

/** Error responses a route documents, by status, all with the one Error object. */
export function errorResponses(...statuses: number[]) {
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      { description: 'Error object', content: { 'application/json': { schema: ErrorBodySchema } } },
    ]),
  );
}
