import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { referralLink } from '../../core/appPages';
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

const linkRoute = createRoute({
  method: 'get',
  path: '/referrals/{address}/link',
  summary: 'A link to a page of the app carrying the referrer in r: trading through it binds the wallet to them',
  request: {
    params: z.object({ address: z.string() }),
    query: z.object({
      path: z.string().openapi({ description: 'a page of the app, starting with /', example: '/launches' }),
    }),
  },
  responses: {
    200: {
      description: 'Link',
      content: {
        'application/json': {
          schema: z.object({ referrer: AddressSchema, path: z.string(), link: z.string() }).openapi('ReferralLink'),
        },
      },
    },
    ...errorResponses(400),
  },
});

export function referralsRoute(app: OpenAPIHono<AppEnv>, challenges: Challenges, registry: ReferrerRegistry): void {
  app.openapi(challengeRoute, (c) =>
    c.json(challenges.issue('referral', readAddress(c.req.query('address'), 'address')), 200),
  );
  app.openapi(linkRoute, (c) => {
    const referrer = readAddress(c.req.param('address'), 'address');
    const path = c.req.query('path');
    return c.json({ referrer, path: path ?? '', link: referralLink(new URL(c.req.url).origin, path, referrer) }, 200);
  });
  app.openAPIRegistry.registerPath(registerRoute);
  app.post('/referrals/register', async (c) => {
    const body = c.get('body');
    const address = await challenges.verify('referral', body.nonce, body.signature);
    const registeredAt = registry.register(address);
    return c.json({ address, registered: true, registeredAt: registeredAt.toISOString() }, 200);
  });
}
