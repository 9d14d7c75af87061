import { z } from 'zod';
import { AddressSchema, CostSchema } from './common';
import { UsdValueSchema } from './quote';
import { StepSchema, UnsignedTxSchema } from './unsignedTx';

/** An amount in the token's or the pair's units, and in wei. */
const LaunchAmountSchema = z.object({ amount: z.string(), wei: z.string() });

/** An amount's dollar value (an addition): in the pair, or for the launch fee and the gas, in BNB. */
const usd = UsdValueSchema.meta({
  description:
    "an addition: in dollars at the currency's dollar price now (BNB by the WBNB/USDT pool, USDT at par), a decimal " +
    'string of at most 6 places, rounded down; null when it has none',
  example: '12.34',
});

/** The same with its dollar value. */
const PricedAmountSchema = LaunchAmountSchema.extend({ usd });

/** The answer of POST /build/launch: what the launch does, its steps and its unsigned transaction, simulated. */
export const LaunchBuildSchema = z
  .object({
    wallet: AddressSchema,
    token: AddressSchema.meta({ description: "the new token's address, known before sending" }),
    name: z.string(),
    symbol: z.string(),
    supply: LaunchAmountSchema,
    pair: z.object({
      address: AddressSchema,
      decimals: z.number().int(),
      symbol: z.string(),
      priced: z.boolean(),
      note: z.string().optional(),
    }),
    opening: z.object({
      tick: z.number().int().meta({ description: 'extra: the pool tick the launch opens at' }),
      marketCapPair: z.number(),
      marketCapUsd: z.number().nullable(),
      driftFromAskedPct: z.number().meta({
        description: 'the tick actually used opens at or above the asked cap: ticks are about 2% apart on the 1% tier',
      }),
    }),
    feeTier: z.number().int(),
    firstBuy: z
      .object({
        spend: PricedAmountSchema,
        minTokens: LaunchAmountSchema,
        siteFee: LaunchAmountSchema.extend({ symbol: z.string(), bps: z.number().int(), usd }).meta({
          description: 'extra: the site fee taken from the spend, in the pair currency',
        }),
      })
      .nullable(),
    launchFee: PricedAmountSchema,
    creatorFeeRecipient: AddressSchema,
    royalty: z.object({
      kind: z.enum(['keep', 'split', 'holders']),
      burnPct: z.number(),
      to: AddressSchema,
      explain: z.string(),
    }),
    shape: z.string(),
    ranges: z
      .array(z.object({ tickLower: z.number().int(), tickUpper: z.number().int(), bps: z.number().int() }))
      .meta({ description: "extra: the shape as laid in the pool's ticks, each range with its share of the supply" }),
    firstBuyTo: z.array(z.object({ wallet: AddressSchema, pct: z.number() })).nullable(),
    salt: z.string(),
    metadata: z.looseObject({ uri: z.string() }).nullable(),
    requires: z.array(StepSchema),
    tx: UnsignedTxSchema,
    simulation: z.object({ ran: z.boolean(), ok: z.boolean() }),
    cost: CostSchema.extend({ usd }),
    explain: z.string(),
  })
  .meta({ id: 'LaunchBuild' });

/** A launch build as the service answers it. */
export type LaunchBuild = z.output<typeof LaunchBuildSchema>;
