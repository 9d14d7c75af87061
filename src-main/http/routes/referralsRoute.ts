import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { readAddress } from '../../core/units/readAddress';
import type { Challenges } from '../../services/challenges';
import type { ReferrerRegistry } from '../../services/referrerRegistry';
import type { AppEnv } from '../env';
import { AddressSchema, errorResponses } from '../schemas';
import { ChallengeQuerySchema, ChallengeSchema, SignedBodySchema } from './accountSchemas';

const challengeRoute = createRoute({
  method: 'get',
  path: '/referrals/challenge',
  summary: 'A challenge to sign to register as a referrer (free, no gas)',
  request: { query: ChallengeQuerySchema },
  responses: {
    200: { description: 'Challenge', content: { 'application/json': { schema: ChallengeSchema } } },
    ...errorResponses(400),
  },
});

const registerRoute = createRoute({
  method: 'post',
  path: '/referrals/register',
  summary: 'Register the wallet that signed a referral challenge as a referrer',
  request: { body: { content: { 'application/json': { schema: SignedBodySchema } }, required: true } },
  responses: {
    200: {
      description: 'Registered (registering again changes nothing)',
      content: {
        'application/json': {
          schema: z
            .object({ address: AddressSchema, registered: z.literal(true), registeredAt: z.string() })
            .openapi('Registration'),
        },
      },
    },
    ...errorResponses(400, 401),
  },
});

export function referralsRoute(app: OpenAPIHono<AppEnv>, challenges: Challenges, registry: ReferrerRegistry): void {
  app.openapi(challengeRoute, (c) =>
    c.json(challenges.issue('referral', readAddress(c.req.query('address'), 'address')), 200),
  );
  app.openAPIRegistry.registerPath(registerRoute);
  app.post('/referrals/register', async (c) => {
    const body = c.get('body');
    const address = await challenges.verify('referral', body.nonce, body.signature);
    const registeredAt = registry.register(address);
    return c.json({ address, registered: true, registeredAt: registeredAt.toISOString() }, 200);
  });
}
