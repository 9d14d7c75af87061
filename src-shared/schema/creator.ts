import { z } from 'zod';
import { AddressSchema, CostSchema, WeiSchema } from './common';
import { TokenRefSchema } from './positions';
import { UsdValueSchema } from './quote';
import { addressField, closedBody } from './requestRules';
import { UnsignedTxSchema } from './unsignedTx';

/** POST /build/collect's body: the wallet that sends, then the token; any other field is refused, naming it. */
export const CollectFields = z.object({
  wallet: addressField('wallet').meta({
    description: 'the wallet that will sign and send (anyone may: it pays the gas, the royalty goes to the launch)',
  }),
  token: addressField('token').meta({ description: 'a token launched by this service' }),
});

export const CollectBodySchema = closedBody(CollectFields);

export type CollectBody = z.output<typeof CollectBodySchema>;

/** An amount with its symbol and dollar value. */
export const CreatorAmountSchema = z.object({
  amount: z.string().meta({ description: 'whole units' }),
  wei: WeiSchema,
  symbol: z.string(),
  usd: UsdValueSchema,
});

export const CollectBuildSchema = z
  .object({
    wallet: AddressSchema,
    token: TokenRefSchema,
    recipient: AddressSchema.meta({ description: "who the royalty is paid to: the launch's royaltyTo or its creator" }),
    outcome: z
      .object({
        simulated: z.boolean().meta({
          description:
            'true: every figure is from the collect sent on a throw-away copy of the chain (the devnet); false: the ' +
            "fees and royalty are exact from the positions, the buy-back's result is not known (burned is then only " +
            'the burn share of the token fees, pendingAfter null)',
        }),
        pairFees: CreatorAmountSchema.meta({
          description: "fees taken from the positions in the pool's pair currency",
        }),
        tokenFees: CreatorAmountSchema.meta({ description: 'fees taken from the positions in the token' }),
        royalty: z.object({ pair: CreatorAmountSchema, tokens: CreatorAmountSchema }).meta({
          description: 'paid to the recipient: the fees less the burn share',
        }),
        burned: CreatorAmountSchema.meta({
          description:
            'tokens sent to the dead address: the burn share of the token fees plus what the buy-back bought',
        }),
        buyback: z.object({
          pendingBefore: CreatorAmountSchema.meta({ description: 'pair currency waiting for a buy-back before' }),
          budget: CreatorAmountSchema.meta({ description: 'what the buy-back may spend: pending plus the burn share' }),
          pendingAfter: CreatorAmountSchema.nullable().meta({
            description: 'what the price guard leaves for a later collect; null when not simulated',
          }),
        }),
      })
      .meta({ description: 'who gains what' }),
    tx: UnsignedTxSchema,
    simulation: z.object({ ran: z.boolean(), ok: z.boolean() }),
    cost: CostSchema.extend({ usd: UsdValueSchema }),
    explain: z.string(),
  })
  .meta({ id: 'CollectBuild' });

export type CollectBuild = z.infer<typeof CollectBuildSchema>;

export const CreatorLaunchSchema = z
  .object({
    token: TokenRefSchema.extend({ image: z.string().nullable() }),
    launchedAt: z.string().meta({ description: "the launch block's time, ISO 8601" }),
    royalty: z.object({
      recipient: AddressSchema.meta({ description: 'royaltyTo, or the creator when the launch named nobody' }),
      burnBps: z.number().int().meta({ description: 'share of the fees bought back and burned, basis points' }),
    }),
    fees: z
      .object({
        pair: z.object({
          collected: CreatorAmountSchema,
          uncollected: CreatorAmountSchema,
          total: CreatorAmountSchema,
        }),
        token: z.object({
          collected: CreatorAmountSchema,
          uncollected: CreatorAmountSchema,
          total: CreatorAmountSchema,
        }),
      })
      .meta({
        description:
          "what the launch's locked liquidity earned: collected (the indexed Collected events) plus uncollected (read " +
          'from the pool positions the factory holds, as a collect sent now would take them)',
      }),
    royaltyPaid: z
      .object({ pair: CreatorAmountSchema, tokens: CreatorAmountSchema })
      .meta({ description: 'paid to the royalty recipient by the indexed collects' }),
    burned: CreatorAmountSchema.meta({
      description: 'tokens burned by the indexed collects (burn share and buy-back)',
    }),
    buybackPending: CreatorAmountSchema.meta({ description: "the factory's buybackPending for the token, now" }),
    firstBuy: z
      .array(
        z.object({
          wallet: AddressSchema,
          received: CreatorAmountSchema.meta({ description: 'tokens the first buy paid it' }),
          balance: CreatorAmountSchema.meta({ description: 'what it holds now (balanceOf)' }),
        }),
      )
      .meta({ description: "the first buy's recipients, in the launch's order; empty without a first buy" }),
  })
  .meta({ id: 'CreatorLaunch' });

export const CreatorLaunchesSchema = z
  .object({ wallet: AddressSchema, block: z.string(), launches: z.array(CreatorLaunchSchema) })
  .meta({ id: 'CreatorLaunches' });

export type CreatorLaunches = z.infer<typeof CreatorLaunchesSchema>;
