import { z } from '@hono/zod-openapi';
import { ERROR_CODES } from '../core/errors';

export const AddressSchema = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/)
  .openapi({ description: '0x followed by 40 hex digits', example: '0x000000000022D473030F116dDEE9F6B43aC78BA3' });

export const WeiSchema = z.string().regex(/^\d+$/).openapi({ description: 'amount in wei, digits only', example: '0' });

export const ErrorBodySchema = z
  .object({
    error: z.object({
      code: z.enum(ERROR_CODES as [string, ...string[]]).openapi({ description: 'stable; what clients act on' }),
      message: z.string().openapi({ description: 'what was wrong' }),
      fix: z.string().optional().openapi({ description: 'what to do about it' }),
      field: z.string().optional().openapi({ description: 'the request field that was wrong' }),
      detail: z.unknown().optional(),
    }),
  })
  .openapi('Error');

export const SettingsSchema = z
  .object({
    apiVersion: z.literal(1),
    chainId: z.number().int(),
    network: z.string().openapi({ description: 'devnet (31337), testnet (97) or mainnet (56)' }),
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
      .openapi({
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
  .openapi('Settings');

export const ErrorListSchema = z
  .object({
    errors: z.array(
      z.object({
        code: z.string(),
        status: z.number().int(),
        meaning: z.string(),
        cause: z.string().optional(),
        fix: z.string(),
        retry: z.boolean(),
      }),
    ),
  })
  .openapi('ErrorList');

/** Error responses a route documents, by status, all with the one Error object. */
export function errorResponses(...statuses: number[]) {
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      { description: 'Error object', content: { 'application/json': { schema: ErrorBodySchema } } },
    ]),
  );
}
