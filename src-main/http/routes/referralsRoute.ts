import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { ChallengeQuerySchema, ChallengeSchema, SignedBodySchema } from '../../../src-shared/schema/auth';
import {
  ClaimBodySchema,
  ClaimBuildSchema,
  ReferralLinkQuerySchema,
  ReferralLinkSchema,
  ReferrerParamsSchema,
  ReferrerSchema,
  RegistrationSchema,
} from '../../../src-shared/schema/referrals';
import { linkBaseOf, referralLink } from '../../core/appPages';
import type { Challenges } from '../../services/challenges';
import type { LifetimeWeeks } from '../../services/lifetimeWeeks';
import type { ReferralRecords } from '../../services/referralRecords';
import type { ReferrerRegistry } from '../../services/referrerRegistry';
import type { AppEnv } from '../env';
import { errorResponses } from '../schemas';

const challengeRoute = createRoute({
  method: 'get',
  path: '/referrals/challenge',
  summary: 'A challenge to sign to register as a referrer (free, no gas)',
  request: { query: ChallengeQuerySchema },
  responses: {
    200: { description: 'Challenge', content: { 'application/json': { schema: ChallengeSchema } } },
    // 429: challenges per address and minute, shared with the key and sign-in challenges.
    ...errorResponses(400, 429),
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
        'application/json': { schema: RegistrationSchema },
      },
    },
    ...errorResponses(400, 401, 413),
  },
});

const linkRoute = createRoute({
  method: 'get',
  path: '/referrals/{address}/link',
  summary:
    "A link to a page of the app carrying the referrer in r, under the public link base (the app's own scheme by default): trading through it binds the wallet to them",
  request: {
    params: ReferrerParamsSchema,
    query: ReferralLinkQuerySchema,
  },
  responses: {
    200: {
      description: 'Link',
      content: {
        'application/json': { schema: ReferralLinkSchema },
      },
    },
    ...errorResponses(400),
  },
});

const recordRoute = createRoute({
  method: 'get',
  path: '/referrals/{address}',
  summary: "A referrer's record: eligibility, links, rates, earnings and lifetime share",
  request: { params: ReferrerParamsSchema },
  responses: {
    200: { description: 'Referrer', content: { 'application/json': { schema: ReferrerSchema } } },
    ...errorResponses(400, 503),
  },
});

const claimRoute = createRoute({
  method: 'post',
  path: '/build/claim',
  summary: "Build one claim of all of a referrer's claimable weeks of lifetime share, simulated from the wallet",
  request: {
    body: {
      content: {
        'application/json': { schema: ClaimBodySchema },
      },
      required: true,
    },
  },
  responses: {
    200: {
      description: 'Claim build',
      content: {
        'application/json': { schema: ClaimBuildSchema },
      },
    },
    ...errorResponses(400, 413, 422, 429, 503),
  },
});

export function referralsRoute(
  app: OpenAPIHono<AppEnv>,
  challenges: Challenges,
  registry: ReferrerRegistry,
  records: ReferralRecords,
  weeks: LifetimeWeeks,
  publicLinkBase: string,
): void {
  app.openapi(challengeRoute, (c) => c.json(challenges.issue('referral', c.req.valid('query').address), 200));
  app.openapi(linkRoute, (c) => {
    const { address: referrer } = c.req.valid('param');
    const { path } = c.req.valid('query');
    return c.json({ referrer, path, link: referralLink(publicLinkBase, path, referrer) }, 200);
  });
  app.openapi(registerRoute, async (c) => {
    const { nonce, signature } = c.req.valid('json');
    const registration = await challenges.redeem('referral', nonce, signature, (address) => ({
      address,
      registered: true as const,
      registeredAt: registry.register(address).toISOString(),
    }));
    return c.json(registration, 200);
  });
  app.openapi(claimRoute, async (c) => c.json(await weeks.buildClaim(c.req.valid('json')), 200));
  app.openapi(recordRoute, async (c) =>
    c.json(await records.record(c.req.valid('param').address, linkBaseOf(publicLinkBase)), 200),
  );
}
