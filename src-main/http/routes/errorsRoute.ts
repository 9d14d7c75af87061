import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { ErrorListSchema } from '../../../src-shared/schema/common';
import { ERROR_CODES, ERRORS, type ErrorEntry } from '../../core/errors';
import type { AppEnv } from '../env';
import { errorResponses } from '../schemas';

const route = createRoute({
  method: 'get',
  path: '/errors',
  summary: 'Every error code with its status, meaning, fix and retry flag',
  description: 'Produced from the same table the server throws from. Codes never change.',
  responses: {
    200: { description: 'Error list', content: { 'application/json': { schema: ErrorListSchema } } },
    ...errorResponses(),
  },
});

const list = {
  errors: ERROR_CODES.map((code) => {
    const entry: ErrorEntry = ERRORS[code];
    return {
      code,
      status: entry.status,
      meaning: entry.meaning,
      ...(entry.cause ? { cause: entry.cause } : {}),
      fix: entry.fix,
      retry: entry.retry,
    };
  }),
};

export function errorsRoute(app: OpenAPIHono<AppEnv>): void {
  app.openapi(route, (c) => c.json(list, 200));
}
