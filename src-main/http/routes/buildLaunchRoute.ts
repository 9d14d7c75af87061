import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import {
  firstLaunchProblem,
  type LaunchRequest,
  LaunchRequestSchema,
  parseLaunchRequest,
  type RequestProblem,
} from '../../../src-shared/schema/launch';
import { LaunchBuildSchema } from '../../../src-shared/schema/launchBuild';
import { ApiError, type ErrorCode } from '../../core/errors';
import type { LaunchService } from '../../services/launchService';
import type { AppEnv } from '../env';
import { errorResponses } from '../schemas';

const route = createRoute({
  method: 'post',
  path: '/build/launch',
  summary: 'Build an unsigned launch, simulated from the wallet',
  request: { body: { content: { 'application/json': { schema: LaunchRequestSchema } }, required: true } },
  responses: {
    200: { description: 'Launch build', content: { 'application/json': { schema: LaunchBuildSchema } } },
    ...errorResponses(400, 413, 415, 422, 429, 503),
  },
});

/** A launch body's broken rule, as the API's error. */
function launchError(problem: RequestProblem): ApiError {
  return new ApiError(problem.code as ErrorCode, problem.message, {
    field: problem.field,
    ...(problem.fix ? { fix: problem.fix } : {}),
  });
}

/**
 * A launch body that no route's validator has read (the stored body of a prepared request), read as POST
 * /build/launch reads one: NOT_DEPLOYED first, then the first rule it breaks in the spec's order.
 */
export function readLaunchBody(launches: LaunchService, body: unknown): LaunchRequest {
  launches.factory();
  return parseLaunchRequest(body, launchError);
}

export function buildLaunchRoute(app: OpenAPIHono<AppEnv>, launches: LaunchService): void {
  // Without a factory nothing can launch, whatever the body: NOT_DEPLOYED before the body is read.
  const deployed: MiddlewareHandler<AppEnv> = async (_c, next) => {
    launches.factory();
    await next();
  };
  app.openapi(
    { ...route, middleware: [deployed] as const },
    async (c) => c.json(await launches.build(c.req.valid('json')), 200),
    // The launch schema's issues carry their own codes, answered in the spec's order of checks.
    (result) => {
      if (!result.success) throw launchError(firstLaunchProblem(result.error.issues));
      return undefined;
    },
  );
}
