import { z } from 'zod';
import { AddressSchema } from './common';
import { LaunchItemSchema } from './launches';
import { addressParam, refuse } from './requestRules';
import { TokenTradeSchema } from './tokens';

export const STREAM_EVENT_TYPES = ['launch', 'trade', 'block'] as const;
export type StreamEventType = (typeof STREAM_EVENT_TYPES)[number];

/** Why a retract event withdraws head events: the chain was reorganized, or the client resumed the stream. */
export const RETRACT_REASONS = ['reorganized', 'resumed'] as const;
export type RetractReason = (typeof RETRACT_REASONS)[number];

/** Streams one client may keep open at once (a network address, or an API key with a budget of its own). */
export const MAX_STREAMS_PER_CLIENT = 128;

/**
 * An event id of the stream: `<block>-<logIndex>` (a launch or trade), `<block>-<logIndex>-1` (a launch's first buy)
 * or `<block>` (a block event). src-main/core/events/streamPosition.ts reads it into a position.
 */
export const STREAM_ID_PATTERN = /^(\d{1,15})(?:-(\d{1,9})(?:-(1))?)?$/;

/** An event id to resume after, sent as `field` (the query's `after`, or the Last-Event-ID header), trimmed. */
function resumeParam(field: string) {
  return z
    .string()
    .check((payload) => {
      if (STREAM_ID_PATTERN.test(payload.value.trim())) return;
      refuse(payload, {
        code: 'INVALID_CURSOR',
        message: `${field} must be an event id of this stream, not "${payload.value.slice(0, 40)}"`,
        field,
        fix: 'Send the id of the last event received unchanged (e.g. 812-3 or 812), or leave it out to start now.',
        rank: 1,
      });
    })
    .transform((id) => id.trim())
    .optional();
}

/** GET /events' query. */
export const EventsQuerySchema = z.object({
  types: z
    .string()
    .check((payload) => {
      const unknown = payload.value
        .split(',')
        .find((type) => !(STREAM_EVENT_TYPES as readonly string[]).includes(type));
      if (unknown === undefined) return;
      refuse(payload, {
        code: 'INVALID_BODY',
        message: `types holds "${unknown.slice(0, 40)}", which is not an event type`,
        field: 'types',
        fix: `Send a comma-separated list of ${STREAM_EVENT_TYPES.join(', ')}, or leave types out for all of them.`,
        rank: 1,
      });
    })
    .transform((types) => types.split(',') as StreamEventType[])
    .optional()
    .transform((types) => new Set(types ?? STREAM_EVENT_TYPES))
    .meta({
      type: 'string',
      description:
        'comma-separated event types to send: launch, trade, block (default all). Retract events come with launch or ' +
        'trade events, and block events that confirm head events sent, whatever this says',
      example: 'launch',
    }),
  token: addressParam('token', { message: (value) => `token must be a 0x address, not "${value.slice(0, 60)}"` })
    .optional()
    .meta({ description: "only this token's launch and trades (block events still come)" }),
  after: resumeParam('after').meta({
    description:
      'an event id to resume after, as the Last-Event-ID header does (the header wins); without either, the stream ' +
      'starts at the indexed block',
    example: '812-3',
  }),
  confirmed: z
    .string()
    .check((payload) => {
      if (payload.value === 'only') return;
      refuse(payload, {
        code: 'INVALID_BODY',
        message: `confirmed takes only the value "only", not "${payload.value.slice(0, 40)}"`,
        field: 'confirmed',
        fix: 'Send confirmed=only for confirmed events alone (no head events, no retract events), or leave confirmed out for head events too.',
        rank: 1,
      });
    })
    .optional()
    .transform((confirmed) => confirmed === 'only')
    .meta({
      type: 'string',
      enum: ['only'],
      description:
        '`only`: confirmed launches and trades alone, exactly as before head events were added (no `confirmed: ' +
        'false` events, no `retract` events); left out, head events come too',
      example: 'only',
    }),
});

/** GET /events' header: the id of the last event received, which EventSource sends by itself when it reconnects. */
export const EventsHeadersSchema = z.object({
  'last-event-id': resumeParam('Last-Event-ID').meta({
    description: 'the id of the last event received (EventSource sends it when it reconnects); wins over `after`',
    example: '812-3',
  }),
});

/** `confirmed: false` on a head event; confirmed events are the items as before, without the field. */
const confirmedFlag = z
  .literal(false)
  .optional()
  .meta({
    description:
      'false on a head event: its block is at the chain head and not confirmed yet (a later block event at or above ' +
      'its block confirms it; a retract event with a lower block withdraws it). Absent on a confirmed event.',
  });

export const LaunchEventSchema = LaunchItemSchema.extend({ confirmed: confirmedFlag }).meta({
  id: 'LaunchEvent',
  description: 'a GET /launches item; with `confirmed: false` when it is a head event',
});

export const TradeEventSchema = TokenTradeSchema.extend({
  token: AddressSchema.meta({ description: 'the token traded' }),
  confirmed: confirmedFlag,
}).meta({
  id: 'TradeEvent',
  description:
    'a GET /tokens/{address}/trades item, with the token it is of; with `confirmed: false` when it is a head event',
});

export const BlockEventSchema = z
  .object({
    block: z.number().int(),
    hash: z.string().nullable().meta({ description: "the block's hash; null before the index has its first block" }),
    at: z.string().nullable().meta({ description: 'ISO 8601, the block time; null when not known' }),
  })
  .meta({
    id: 'BlockEvent',
    description:
      'Every launch and trade up to and including this block has been sent, confirmed, and every head event at or ' +
      'below it that was sent before this event and not withdrawn is confirmed (it is not sent again). Sent after ' +
      'each indexed batch when `types` asks for block events, and whatever `types` asks when it confirms head events ' +
      'sent to this client; first on a fresh connection (the indexed block then), and again with a lower block when ' +
      'the chain was reorganized back to it (what follows replaces what was sent past it; with head events, a ' +
      'retract event of the same block comes first).',
  });

export const RetractEventSchema = z
  .object({
    block: z.number().int().meta({ description: 'every event sent past this block is withdrawn' }),
    reason: z.enum(RETRACT_REASONS).meta({
      description:
        '`reorganized`: the chain dropped those blocks; `resumed`: the first event of a resumed stream, which ' +
        'cannot know what the client held: what is still on the chain past `block` is sent again',
    }),
  })
  .meta({
    id: 'RetractEvent',
    description:
      'Withdraws every event sent past `block`; what follows replaces it. `reorganized`: the head events of blocks ' +
      'the chain dropped at the head (no id); after a reorganization deeper than the confirmed block, the confirmed ' +
      'events past it too (the retract event then has the id `<block>`, and the lower block event follows). ' +
      '`resumed`: first on a resumed stream, whatever head events the client held past where it resumed (no id). ' +
      'Sent only on a stream with head events: never with confirmed=only, nor where every block is confirmed as it ' +
      'is made (0 confirmations).',
  });

const eventId = (description: string) => z.string().meta({ description });

/** One Server-Sent Event of GET /events: its `event`, `id` and `data` fields (data is one line of JSON). */
export const StreamEventSchema = z
  .discriminatedUnion('event', [
    z.object({
      event: z.literal('launch'),
      id: eventId('<block>-<logIndex>; none on a head event').optional(),
      data: LaunchEventSchema,
    }),
    z.object({
      event: z.literal('trade'),
      id: eventId(
        "<block>-<logIndex>; a launch's first buy, kept at its launch's place, is <block>-<logIndex>-1; none on a " +
          'head event',
      ).optional(),
      data: TradeEventSchema,
    }),
    z.object({ event: z.literal('block'), id: eventId('<block>'), data: BlockEventSchema }),
    z.object({
      event: z.literal('retract'),
      id: eventId('<block>, only when the reorganization reached below the last confirmed event sent').optional(),
      data: RetractEventSchema,
    }),
  ])
  .meta({
    id: 'StreamEvent',
    description:
      'One event of the stream, as its SSE fields. Confirmed events come in chain order, each once, with an id; ' +
      'send the last id received as Last-Event-ID (or `after`) to resume with nothing confirmed missed or repeated. ' +
      'Head events (`confirmed: false`) carry no id, so the last id stays on the confirmed stream.',
  });

export type StreamEvent = z.infer<typeof StreamEventSchema>;
export type LaunchEvent = z.infer<typeof LaunchEventSchema>;
export type TradeEvent = z.infer<typeof TradeEventSchema>;
export type BlockEvent = z.infer<typeof BlockEventSchema>;
export type RetractEvent = z.infer<typeof RetractEventSchema>;
