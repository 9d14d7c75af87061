import { z } from 'zod';
import { SignedBodySchema } from './auth';
import { AddressSchema } from './common';
import { addressParam, refuse } from './requestRules';

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

const labelRefusal = {
  code: 'INVALID_BODY',
  field: 'label',
  message: `label must be a name of 1 to ${MAX_LABEL_CHARS} characters`,
  fix: 'Send a short label that tells this key apart, such as the bot that will use it.',
} as const;

/**
 * POST /keys' body. The label is checked first, so a mistyped one is refused before the signed challenge is looked
 * at (and used up); it is kept trimmed.
 */
export const CreateKeyBodySchema = z.object({
  label: z
    .custom<string>(
      (label) => typeof label === 'string' && label.trim() !== '' && [...label].length <= MAX_LABEL_CHARS,
      { error: labelRefusal.message, params: labelRefusal },
    )
    .check((payload) => {
      if (/\p{Cc}/u.test(payload.value)) {
        refuse(payload, { code: 'INVALID_BODY', field: 'label', message: 'label must not contain control characters' });
      }
    })
    .transform((label) => label.trim())
    .meta({
      type: 'string',
      minLength: 1,
      maxLength: MAX_LABEL_CHARS,
      description: `1 to ${MAX_LABEL_CHARS} characters, no control characters`,
    }),
  ...SignedBodySchema.shape,
});

/** POST /keys' answer; an intersection so the document keeps it as KeyEntry plus its own fields (allOf). */
export const CreatedKeySchema = KeyEntrySchema.and(
  z.object({
    wallet: AddressSchema,
    key: z.string().meta({ description: 'send it in x-api-key; only a hash of it is kept' }),
  }),
).meta({ id: 'CreatedKey' });

export const KeysQuerySchema = z.object({
  wallet: addressParam('wallet')
    .optional()
    .meta({ description: 'signed in: the wallet meant (SESSION_WALLET_MISMATCH)' }),
});

export const KeyListSchema = z.object({ wallet: AddressSchema, keys: z.array(KeyEntrySchema) }).meta({ id: 'KeyList' });

/** A key's id: key_ and 16 hex digits. */
export const KEY_ID_PATTERN = /^key_[0-9a-f]{16}$/;

/** DELETE /keys/{id}'s path. */
export const KeyIdParamsSchema = z.object({
  id: z
    .string()
    .check((payload) => {
      if (KEY_ID_PATTERN.test(payload.value)) return;
      refuse(payload, {
        code: 'INVALID_ID',
        field: 'id',
        message: `${payload.value.slice(0, 40)} is not a key id (key_ and 16 hex digits)`,
        fix: 'Send an id from GET /keys.',
      });
    })
    .meta({ pattern: KEY_ID_PATTERN.source, description: 'key_ and 16 hex digits' }),
});

export const RevokedKeySchema = z.object({ key: KeyEntrySchema }).meta({ id: 'RevokedKey' });
