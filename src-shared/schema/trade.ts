import { z } from 'zod';
import { AddressSchema, CostSchema } from './common';
import { ExactSchema, SlippageBpsSchema, TradeQuoteSchema, UsdValueSchema } from './quote';
import { addressField, closedBody, decimalField, nullableAddressField } from './requestRules';
import { StepSchema, UnsignedTxSchema } from './unsignedTx';

/**
 * POST /build/buy and /build/sell's body, checked in the spec's order: wallet, referrer, exact, slippageBps, then the
 * token's form and the amount's. Whether the token was launched here and the amount fits its currency's decimals is
 * the service's to say, after these. Any other field is refused first, naming it (closedBody).
 */
export const TradeFields = z.object({
  wallet: addressField('wallet').meta({ description: 'the wallet that will sign and send' }),
  referrer: nullableAddressField('referrer').optional().meta({
    description:
      "paid the referral cut inside the trade; null for nobody; left out: the API key's wallet, if a key is sent",
  }),
  exact: ExactSchema.nullish()
    .transform((exact) => exact ?? 'in')
    .meta({ description: 'in (pay is fixed; the default) or out (receive is fixed)', default: 'in' }),
  slippageBps: SlippageBpsSchema,
  token: addressField('token').meta({ description: 'token address' }),
  amount: decimalField('amount').meta({
    description: 'exact in: what is spent; exact out: what is received (whole units)',
  }),
});

export const TradeBodySchema = closedBody(TradeFields);

export type TradeBody = z.output<typeof TradeBodySchema>;

/**
 * A build's answer: the quote's fields and the build's own. An intersection rather than `.extend`, so the document
 * keeps TradeBuild as TradeQuote plus its own fields (allOf) instead of a copy of every quote field.
 */
export const TradeBuildSchema = TradeQuoteSchema.and(
  z.object({
    wallet: AddressSchema,
    referrer: z.object({ address: AddressSchema, bps: z.number().int() }).nullable(),
    referrerNote: z.string().optional().meta({
      description: "present only when the API key's wallet was offered as the referrer and could not be used: why",
    }),
    requires: z.array(StepSchema),
    tx: UnsignedTxSchema,
    simulation: z
      .object({
        ran: z.boolean(),
        ok: z.boolean(),
        afterSteps: z
          .object({
            ran: z.boolean(),
            ok: z.boolean(),
            revert: z.object({ name: z.string(), args: z.array(z.string()), data: z.string() }).optional(),
          })
          .optional()
          .meta({
            description:
              'Extra: with steps in requires, whether the trade would succeed once they are done (simulated on a copy of the chain; ran is false where no copy can be made)',
          }),
      })
      .meta({
        description: 'ran is false while a step in requires is still needed; ok: would succeed if sent now',
      }),
    cost: CostSchema.extend({
      usd: UsdValueSchema.meta({
        description:
          'an addition: the most the gas can cost (maxWei) in dollars, at most 6 places, rounded down; null when BNB has no dollar price',
      }),
    }),
    expiresAt: z.string().meta({ description: 'the on-chain deadline, ISO 8601' }),
    explain: z.string(),
  }),
).meta({ id: 'TradeBuild' });

export type TradeBuild = z.infer<typeof TradeBuildSchema>;
