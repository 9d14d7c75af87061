import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { linkBaseOf, referralLink } from '../../core/appPages';
import { readAddress } from '../../core/units/readAddress';
import type { Challenges } from '../../services/challenges';
import type { LifetimeWeeks } from '../../services/lifetimeWeeks';
import type { ReferralRecords } from '../../services/referralRecords';
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
  summary:
    "A link to a page of the app carrying the referrer in r, under the public link base (the app's own scheme by default): trading through it binds the wallet to them",
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

const CurrencyTotalSchema = z.object({
  currency: z.object({ address: AddressSchema, decimals: z.number().int(), symbol: z.string() }),
  wei: z.string(),
  amount: z.string(),
  trades: z.number().int(),
});
const EarningsSchema = z.object({
  usd: z.number().openapi({ description: 'dollars of the priced currencies, each cut at its trade time price' }),
  unpriced: z.array(CurrencyTotalSchema).openapi({ description: 'currencies with no dollar price' }),
  byCurrency: z.array(CurrencyTotalSchema.extend({ usd: z.number().nullable() })),
});
const ReferrerSchema = z
  .object({
    address: AddressSchema,
    eligible: z.boolean().openapi({ description: 'registered, or the creator of a launched token' }),
    registered: z.boolean(),
    active: z.boolean().openapi({ description: 'eligible, with a trade through it in the last 30 days' }),
    links: z.object({
      base: z.string(),
      token: z.string().openapi({ description: 'replace the literal {token} with a token address' }),
      launch: z.string(),
    }),
    rates: z.object({ instantBps: z.number().int(), lifetimeShareBps: z.number().int() }),
    instant: z.object({
      earnings: z.object({ h24: EarningsSchema, d7: EarningsSchema, d30: EarningsSchema, all: EarningsSchema }),
    }),
    lifetime: z.object({
      referred: z.number().int().openapi({ description: 'wallets bound' }),
      weeklyCapWei: z.string(),
      allTimePaidWei: z.string(),
      todayEstimateWei: z.string().nullable(),
      backlog: z
        .object({ owedWei: z.string(), sinceWeek: z.number().int(), lastAddedWeek: z.number().int() })
        .nullable(),
      claimableWeeks: z.array(
        z.object({
          week: z.number().int(),
          amount: z.string(),
          paid: z.boolean(),
          claimable: z.boolean(),
          proof: z.array(z.string()).nullable(),
        }),
      ),
      boundTo: AddressSchema.nullable().openapi({ description: 'the referrer this wallet is bound to' }),
    }),
  })
  .openapi('Referrer');

const recordRoute = createRoute({
  method: 'get',
  path: '/referrals/{address}',
  summary: "A referrer's record: eligibility, links, rates, earnings and lifetime share",
  request: { params: z.object({ address: z.string() }) },
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
        'application/json': {
          schema: z.object({
            wallet: z.string().openapi({ description: 'the wallet that will sign and send (anyone may)' }),
            referrer: z.string().optional().openapi({ description: 'whose weeks; the wallet by default' }),
          }),
        },
      },
      required: true,
    },
  },
  responses: {
    200: {
      description: 'Claim build',
      content: {
        'application/json': {
          schema: z
            .object({
              wallet: AddressSchema,
              referrer: AddressSchema,
              weeks: z.array(z.object({ week: z.number().int(), amount: z.string() })),
              total: z.object({ amount: z.string(), wei: z.string(), symbol: z.string() }),
              tx: z.object({
                chainId: z.number().int(),
                to: AddressSchema,
                data: z.string(),
                value: z.string(),
                gas: z.string(),
              }),
              simulation: z.object({ ran: z.boolean(), ok: z.boolean() }),
              cost: z.object({ gasPriceWei: z.string(), maxWei: z.string(), max: z.string() }),
              explain: z.string(),
            })
            .openapi('ClaimBuild'),
        },
      },
    },
    ...errorResponses(400, 422, 429, 503),
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
  app.openapi(challengeRoute, (c) =>
    c.json(challenges.issue('referral', readAddress(c.req.query('address'), 'address')), 200),
  );
  app.openapi(linkRoute, (c) => {
    const referrer = readAddress(c.req.param('address'), 'address');
    const path = c.req.query('path');
    return c.json({ referrer, path: path ?? '', link: referralLink(publicLinkBase, path, referrer) }, 200);
  });
  app.openAPIRegistry.registerPath(registerRoute);
  app.openAPIRegistry.registerPath(claimRoute);
  app.post('/build/claim', async (c) => c.json(await weeks.buildClaim(c.get('body')), 200));
  app.openapi(recordRoute, async (c) =>
    c.json(await records.record(readAddress(c.req.param('address'), 'address'), linkBaseOf(publicLinkBase)), 200),
  );
  app.post('/referrals/register', async (c) => {
    const body = c.get('body');
    const registration = await challenges.redeem('referral', body.nonce, body.signature, (address) => ({
      address,
      registered: true as const,
      registeredAt: registry.register(address).toISOString(),
    }));
    return c.json(registration, 200);
  });
}
