import { z } from 'zod';
import { SignedBodySchema } from './auth';
import { AddressSchema } from './common';

export const MAX_LABEL_CHARS = 64;

export const KeyEntrySchema = z
  .object({
    id: z.string().meta({ description: 'key_ and 16 hex digits' }),
    label: z.string(),
    hint: z.string().meta({ description: "the key's last four characters" }),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable().meta({ description: 'to the minute' }),
    revokedAt: z.string().nullable(),
    revoked: z.boolean(),
  })
  .meta({ id: 'KeyEntry' });

/** POST /keys' body. */
export const CreateKeyBodySchema = SignedBodySchema.extend({
  label: z.string().meta({ description: `1 to ${MAX_LABEL_CHARS} characters` }),
});

/** POST /keys' answer; an intersection so the document keeps it as KeyEntry plus its own fields (allOf). */
export const CreatedKeySchema = KeyEntrySchema.and(
  z.object({
    wallet: AddressSchema,
    key: z.string().meta({ description: 'send it in x-api-key; only a hash of it is kept' }),
  }),
).meta({ id: 'CreatedKey' });

export const KeysQuerySchema = z.object({
  wallet: z.string().optional().meta({ description: 'signed in: the wallet meant (SESSION_WALLET_MISMATCH)' }),
});

export const KeyListSchema = z.object({ wallet: AddressSchema, keys: z.array(KeyEntrySchema) }).meta({ id: 'KeyList' });

export const KeyIdParamsSchema = z.object({ id: z.string() });

export const RevokedKeySchema = z.object({ key: KeyEntrySchema }).meta({ id: 'RevokedKey' });
