import { z } from 'zod';
import { SignedFields } from './auth';
import { AddressSchema } from './common';
import { addressParam, closedBody, refuse } from './requestRules';

export const MAX_LABEL_CHARS = 64;
/** The most a key's budget may allow of one kind of request a minute (a thousand a second). */
export const MAX_BUDGET_PER_MINUTE = 60_000;

/** One kind of request a key's budget allows a minute: a whole number from 1 to MAX_BUDGET_PER_MINUTE. */
function perMinute(field: 'quotesPerMinute' | 'buildsPerMinute', what: string) {
  const message = `budget.${field} must be a whole number of ${what} a minute, from 1 to ${MAX_BUDGET_PER_MINUTE}`;
  return z
    .custom<number>(
      (value) => typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_BUDGET_PER_MINUTE,
      {
        error: message,
        params: {
          code: 'INVALID_BODY',
          field: `budget.${field}`,
          fix: `Send budget.${field} as a number such as 600 (no quotes, no decimals), or leave out budget.`,
        },
      },
    )
    .meta({ type: 'integer', minimum: 1, maximum: MAX_BUDGET_PER_MINUTE, description: `${what} a minute` });
}

/**
 * A key's own rate budget, given by the app's owner when the key is made: the key's requests count against it instead
 * of their address's (an addition to the spec, whose limits are per address).
 */
export const KeyBudgetSchema = z.object({
  quotesPerMinute: perMinute('quotesPerMinute', 'quotes'),
  buildsPerMinute: perMinute('buildsPerMinute', 'builds'),
});

export const KeyEntrySchema = z
  .object({
    id: z.string().meta({ description: 'key_ and 16 hex digits' }),
    label: z.string(),
    hint: z.string().meta({ description: "the key's last four characters" }),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable().meta({ description: 'to the minute' }),
    revokedAt: z.string().nullable(),
    revoked: z.boolean(),
    budget: KeyBudgetSchema.nullable().meta({
      description: "the key's own rate budget (an addition); null: its requests count against their address's limits",
    }),
  })
  .meta({ id: 'KeyEntry' });

const labelRefusal = {
  code: 'INVALID_BODY',
  field: 'label',
  message: `label must be a name of 1 to ${MAX_LABEL_CHARS} characters`,
  fix: 'Send a short label that tells this key apart, such as the bot that will use it.',
} as const;

/**
 * POST /keys' body. The label and the budget are checked first, so a mistyped one is refused before the signed
 * challenge is looked at (and used up); the label is kept trimmed.
 */
export const CreateKeyBodySchema = closedBody(
  z.object({
    label: z
      .custom<string>(
        (label) => typeof label === 'string' && label.trim() !== '' && [...label].length <= MAX_LABEL_CHARS,
        { error: labelRefusal.message, params: labelRefusal },
      )
      .check((payload) => {
        if (/\p{Cc}/u.test(payload.value)) {
          refuse(payload, {
            code: 'INVALID_BODY',
            field: 'label',
            message: 'label must not contain control characters',
          });
        }
      })
      .transform((label) => label.trim())
      .meta({
        type: 'string',
        minLength: 1,
        maxLength: MAX_LABEL_CHARS,
        description: `1 to ${MAX_LABEL_CHARS} characters, no control characters`,
      }),
    budget: KeyBudgetSchema.nullable()
      .optional()
      .meta({
        description:
          "an addition: the key's own rate budget, instead of its address's limits; only the app's owner gives one " +
          '(x-app-token, or the API keys page); left out or null: none',
      }),
    ...SignedFields.shape,
  }),
);

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
