import type { Hash } from 'viem';
import { z } from 'zod';
import { AddressSchema } from './common';
import { launchFieldRefusals } from './launch';
import { addressField, closedBody, patternField, refuse, unknownFieldRefusals } from './requestRules';
import { TradeFields } from './trade';

export const INTENT_KINDS = ['prepare_buy', 'prepare_sell', 'prepare_launch'] as const;
export type IntentKind = (typeof INTENT_KINDS)[number];

export const INTENT_STATES = ['pending', 'built', 'sent', 'confirmed', 'failed'] as const;
export type IntentState = (typeof INTENT_STATES)[number];

const KeySourceSchema = z.object({
  kind: z.literal('key'),
  key: z.object({
    id: z.string().nullable().meta({ description: 'null on a request stored before sources were kept' }),
    label: z.string().nullable().meta({ description: "the key's label when it asked (chosen by the key's owner)" }),
    wallet: AddressSchema.meta({ description: "the key's wallet" }),
  }),
  at: z.string().meta({ description: 'when it asked, ISO 8601' }),
});

export const IntentSourceSchema = z
  .discriminatedUnion('kind', [
    KeySourceSchema,
    z.object({ kind: z.literal('app'), at: z.string() }),
    z.object({ kind: z.literal('unknown'), at: z.string() }),
  ])
  .meta({
    id: 'IntentSource',
    description:
      'Who asked for the request: an API key (id, label, wallet) or the app itself, and when; unknown only for a request stored before sources were kept, without a key (closed then)',
  });

export const IntentSchema = z
  .object({
    id: z.string().meta({ description: 'int_ and 24 hex digits' }),
    kind: z.enum(INTENT_KINDS),
    wallet: AddressSchema,
    state: z.enum(INTENT_STATES).meta({
      description:
        'pending: waiting for the user; built: shown for review; sent: hash reported; confirmed or failed on chain',
    }),
    request: z.record(z.string(), z.unknown()).meta({ description: 'the body of the matching build' }),
    build: z.unknown().nullable().meta({ description: 'the build answer shown for review, once built' }),
    keyWallet: AddressSchema.nullable().meta({
      description: "the wallet of the API key the request was created with: its trades' default referrer",
    }),
    source: IntentSourceSchema,
    tx: z.object({ hash: z.string(), block: z.number().int().nullable() }).nullable(),
    reason: z.string().nullable().meta({ description: 'why it failed (rejected by the user, reverted)' }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Intent' });

const TRADE_REQUEST_FIELDS = ['kind', ...Object.keys(TradeFields.shape)];

/** The first field of a prepared request that neither `kind` nor the matching build takes, refused naming it. */
function unknownRequestFields(body: unknown) {
  const kind = (body as { kind?: unknown } | null)?.kind;
  if (kind === 'prepare_launch') {
    const { kind: _kind, ...launch } = body as Record<string, unknown>;
    return launchFieldRefusals(launch);
  }
  if (kind === 'prepare_buy' || kind === 'prepare_sell') return unknownFieldRefusals(body, TRADE_REQUEST_FIELDS);
  return [];
}

/** The fields POST /intents reads itself: the kind and the wallet; the rest is the matching build's. */
const IntentFields = z
  .object({
    kind: z
      .custom<IntentKind>((kind) => typeof kind === 'string' && (INTENT_KINDS as readonly string[]).includes(kind), {
        error: `kind must be one of ${INTENT_KINDS.join(', ')}`,
        params: {
          code: 'INVALID_KIND',
          field: 'kind',
          fix: 'Send kind prepare_buy or prepare_sell with the body of POST /build/buy or /build/sell, or prepare_launch with that of POST /build/launch.',
        },
      })
      .meta({ type: 'string', enum: [...INTENT_KINDS] }),
    wallet: addressField('wallet'),
  })
  .passthrough()
  .meta({ description: 'kind, plus the body of POST /build/buy, /build/sell or /build/launch' });

/**
 * POST /intents' body: the kind, and the body of the matching build, kept as sent (it is read in full by the build's
 * own schema when the request is built), its wallet checked and checksummed. A field the matching build does not
 * take is refused now, naming it, not when the person opens the request.
 */
export const IntentBodySchema = z.preprocess((body, payload) => {
  for (const refusal of unknownRequestFields(body)) refuse(payload, refusal);
  return body;
}, IntentFields);

export type IntentBody = z.output<typeof IntentBodySchema>;

/** GET /intents' query. */
export const IntentsQuerySchema = z.object({
  wallet: addressField('wallet').meta({ description: 'the wallet whose requests to list' }),
  state: z
    .custom<IntentState>((state) => typeof state === 'string' && (INTENT_STATES as readonly string[]).includes(state), {
      error: `state must be one of ${INTENT_STATES.join(', ')}`,
      params: { code: 'INVALID_BODY', field: 'state' },
    })
    .optional()
    .meta({ type: 'string', enum: [...INTENT_STATES], description: 'only the requests in this state' }),
});

export const IntentListSchema = z.object({ intents: z.array(IntentSchema) });

export const IntentIdParamsSchema = z.object({ id: z.string() });

/** The reason a user gives for turning a request down, trimmed and cut at 200 characters; none when blank. */
export const IntentRejectBodySchema = closedBody(
  z.object({
    reason: z
      .string()
      .optional()
      .transform((reason) => reason?.trim().slice(0, 200) || undefined)
      .meta({ description: 'why, for the bot that asked (at most 200 characters are kept)' }),
  }),
);

const HASH_PATTERN = /^0x[0-9a-fA-F]{64}$/;

/** POST /intents/{id}/sent's body: the hash of the transaction that fulfilled the request. */
export const IntentSentBodySchema = closedBody(
  z.object({
    hash: patternField(HASH_PATTERN, {
      code: 'INVALID_HASH',
      field: 'hash',
      message: 'hash must be a transaction hash: 0x followed by 64 hex digits',
    }).transform((hash) => hash as Hash),
  }),
);
