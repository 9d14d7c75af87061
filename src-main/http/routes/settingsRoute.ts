import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { SettingsSchema } from '../../../src-shared/schema/settings';
import type { SettingsService } from '../../services/settingsService';
import type { AppEnv } from '../env';
import { errorResponses } from '../schemas';

const route = createRoute({
  method: 'get',
  path: '/settings',
  summary: 'Network, contract addresses, fees, pair currencies and limits',
  description: 'Read it first. Fee rates, the launch fee and the launch pause are read live from the chain.',
  responses: {
    200: { description: 'Settings', content: { 'application/json': { schema: SettingsSchema } } },
    ...errorResponses(503),
  },
});

export function settingsRoute(app: OpenAPIHono<AppEnv>, settings: SettingsService): void {
  app.openapi(route, async (c) => c.json((await settings.get()) as never, 200));
}
