import { z } from 'zod';
import { AddressSchema, WeiSchema } from './common';

/** GET /settings. */
export const SettingsSchema = z
  .object({
    apiVersion: z.literal(1),
    chainId: z.number().int(),
    network: z.string().meta({ description: 'devnet (31337), testnet (97) or mainnet (56)' }),
    contracts: z
      .object({
        factory: AddressSchema,
        router: AddressSchema,
        permit2: AddressSchema,
        quoter: AddressSchema,
        wbnb: AddressSchema,
        siteFeeRecipient: AddressSchema,
        referrals: AddressSchema.nullable(),
      })
      .catchall(AddressSchema.nullable())
      .meta({
        description:
          'Extra keys: config (fee rates, launch fee, pause), usdt, pancakeFactory, poolDeployer, swapRouter, positionManager.',
      }),
    fees: z.object({
      siteFeeBps: z.number().int(),
      referrerBps: z.number().int(),
      lifetimeReferralBps: z.number().int(),
    }),
    launch: z.object({
      paused: z.boolean(),
      launchFeeWei: WeiSchema,
      feeTiers: z.array(z.object({ bps: z.number().int(), label: z.string(), default: z.boolean().optional() })),
      defaultFeeTier: z.number().int(),
      defaultSupply: z.string(),
    }),
    pairs: z.array(
      z.object({
        address: AddressSchema,
        decimals: z.number().int(),
        symbol: z.string(),
        native: z.boolean().optional(),
      }),
    ),
    limits: z.object({
      tradeDeadlineSeconds: z.number().int(),
      permitDays: z.number().int(),
      maxSlippageBps: z.number().int(),
      defaultSlippageBps: z.number().int(),
    }),
  })
  .meta({ id: 'Settings' });

export type Settings = z.infer<typeof SettingsSchema>;
