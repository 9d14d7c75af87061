import { z } from 'zod';
import { AddressSchema } from './common';
import { pageSizeParam, refuse } from './requestRules';

export const DEFAULT_PAGE = 50;
export const MAX_PAGE = 200;

/** GET /launches' query. */
export const LaunchesQuerySchema = z.object({
  after: z
    .string()
    .check((payload) => {
      if (/^\d{1,15}$/.test(payload.value)) return;
      refuse(payload, {
        code: 'INVALID_CURSOR',
        message: `after must be a block number (digits only), not "${payload.value.slice(0, 40)}"`,
        field: 'after',
        rank: 1,
      });
    })
    .transform(Number)
    .optional()
    .meta({ type: 'integer', minimum: 0, description: 'block number: the `next` of a previous answer' }),
  limit: pageSizeParam(MAX_PAGE, DEFAULT_PAGE),
});

export const LaunchItemSchema = z
  .object({
    token: AddressSchema,
    symbol: z.string(),
    name: z.string(),
    creator: AddressSchema.meta({ description: 'wallet that launched it' }),
    pool: AddressSchema,
    pair: AddressSchema.meta({ description: 'pair currency contract' }),
    feeTier: z.number().int().meta({ description: '10000 = 1%' }),
    image: z.string().nullable().meta({ description: 'logo link; null until found in the metadata, or none' }),
    launchedAt: z.string().meta({ description: 'ISO 8601, the block time' }),
    tx: z.string().meta({ description: 'transaction hash of the launch' }),
    block: z.number().int(),
  })
  .meta({ id: 'LaunchListItem' });

export const LaunchPageSchema = z
  .object({
    launches: z.array(LaunchItemSchema),
    next: z
      .number()
      .int()
      .nullable()
      .meta({
        description:
          'Send it as `after` next time to get only newer launches: the block of the newest launch in this answer, ' +
          'null when the answer is empty (keep the `after` you sent).',
      }),
  })
  .meta({ id: 'LaunchPage' });

export type LaunchPage = z.infer<typeof LaunchPageSchema>;
