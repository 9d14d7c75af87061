import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { LaunchRequestSchema } from '../../../src-shared/schema/launch';
import { LaunchBuildSchema } from '../../../src-shared/schema/launchBuild';
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

export function buildLaunchRoute(app: OpenAPIHono<AppEnv>, launches: LaunchService): void {
  // Documented from the launch schema; the service parses with the same schema, after its own first check (is a
  // factory deployed), so each broken rule answers the spec's code and field in the spec's order.
  app.openAPIRegistry.registerPath(route);
  app.post('/build/launch', async (c) => c.json(await launches.build(c.get('body')), 200));
}
