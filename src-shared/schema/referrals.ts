import { z } from 'zod';
import { APP_PAGES, appPageProblem } from '../appPages';
import { AddressSchema, CostSchema } from './common';
import { addressField, addressParam, closedBody, refuse } from './requestRules';
import { UnsignedTxSchema } from './unsignedTx';

export const RegistrationSchema = z
  .object({ address: AddressSchema, registered: z.literal(true), registeredAt: z.string() })
  .meta({ id: 'Registration' });

export const ReferrerParamsSchema = z.object({
  address: addressParam('address').meta({ description: 'the referrer' }),
});

/** GET /referrals/{address}/link's query. */
export const ReferralLinkQuerySchema = z.object({
  path: z
    .string()
    .check((payload) => {
      const problem = appPageProblem(payload.value);
      if (problem === null) return;
      refuse(payload, {
        code: 'INVALID_PATH',
        field: 'path',
        message: `path ${problem}`,
        fix: `Send the path of one of the app's pages: ${APP_PAGES.join(', ')}.`,
        rank: 1,
      });
    })
    .meta({ description: `a page of the app, starting with / (${APP_PAGES.join(', ')})`, example: '/launches' }),
});

export const ReferralLinkSchema = z
  .object({ referrer: AddressSchema, path: z.string(), link: z.string() })
  .meta({ id: 'ReferralLink' });

const CurrencyTotalSchema = z.object({
  currency: z.object({ address: AddressSchema, decimals: z.number().int(), symbol: z.string() }),
  wei: z.string(),
  amount: z.string(),
  trades: z.number().int(),
});

const EarningsSchema = z.object({
  usd: z.number().meta({ description: 'dollars of the priced currencies, each cut at its trade time price' }),
  unpriced: z.array(CurrencyTotalSchema).meta({ description: 'currencies with no dollar price' }),
  byCurrency: z.array(CurrencyTotalSchema.extend({ usd: z.number().nullable() })),
});

/** GET /referrals/{address}. */
export const ReferrerSchema = z
  .object({
    address: AddressSchema,
    eligible: z.boolean().meta({ description: 'registered, or the creator of a launched token' }),
    registered: z.boolean(),
    active: z.boolean().meta({ description: 'eligible, with a trade through it in the last 30 days' }),
    links: z.object({
      base: z.string(),
      token: z.string().meta({ description: 'replace the literal {token} with a token address' }),
      launch: z.string(),
    }),
    rates: z.object({ instantBps: z.number().int(), lifetimeShareBps: z.number().int() }),
    instant: z.object({
      earnings: z.object({ h24: EarningsSchema, d7: EarningsSchema, d30: EarningsSchema, all: EarningsSchema }),
    }),
    lifetime: z.object({
      referred: z.number().int().meta({ description: 'wallets bound' }),
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
      boundTo: AddressSchema.nullable().meta({ description: 'the referrer this wallet is bound to' }),
    }),
  })
  .meta({ id: 'Referrer' });

/** POST /build/claim's body. */
export const ClaimBodySchema = closedBody(
  z.object({
    wallet: addressField('wallet').meta({ description: 'the wallet that will sign and send (anyone may)' }),
    referrer: addressField('referrer').optional().meta({ description: 'whose weeks; the wallet by default' }),
  }),
);

/** POST /build/claim's answer. Its tx is documented with gas always present: a claim has no steps before it. */
export const ClaimBuildSchema = z
  .object({
    wallet: AddressSchema,
    referrer: AddressSchema,
    weeks: z.array(z.object({ week: z.number().int(), amount: z.string() })),
    total: z.object({ amount: z.string(), wei: z.string(), symbol: z.string() }),
    tx: UnsignedTxSchema.required({ gas: true }),
    simulation: z.object({ ran: z.boolean(), ok: z.boolean() }),
    cost: CostSchema,
    explain: z.string(),
  })
  .meta({ id: 'ClaimBuild' });
