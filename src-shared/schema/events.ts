import { z } from 'zod';
import { AddressSchema } from './common';
import { LaunchItemSchema } from './launches';
import { addressParam, refuse } from './requestRules';
import { TokenTradeSchema } from './tokens';

export const STREAM_EVENT_TYPES = ['launch', 'trade', 'block'] as const;
export type StreamEventType = (typeof STREAM_EVENT_TYPES)[number];

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
      description: 'comma-separated event types to send: launch, trade, block (default all)',
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
});

/** GET /events' header: the id of the last event received, which EventSource sends by itself when it reconnects. */
export const EventsHeadersSchema = z.object({
  'last-event-id': resumeParam('Last-Event-ID').meta({
    description: 'the id of the last event received (EventSource sends it when it reconnects); wins over `after`',
    example: '812-3',
  }),
});

export const TradeEventSchema = TokenTradeSchema.extend({
  token: AddressSchema.meta({ description: 'the token traded' }),
}).meta({ id: 'TradeEvent', description: 'a GET /tokens/{address}/trades item, with the token it is of' });

export const BlockEventSchema = z
  .object({
    block: z.number().int(),
    hash: z.string().nullable().meta({ description: "the block's hash; null before the index has its first block" }),
    at: z.string().nullable().meta({ description: 'ISO 8601, the block time; null when not known' }),
  })
  .meta({
    id: 'BlockEvent',
    description:
      'Every launch and trade up to and including this block has been sent. Sent after each indexed batch, first ' +
      'on a fresh connection (the indexed block then), and again with a lower block when the chain was reorganized ' +
      'back to it (what follows replaces what was sent past it).',
  });

const eventId = (description: string) => z.string().meta({ description });

/** One Server-Sent Event of GET /events: its `event`, `id` and `data` fields (data is one line of JSON). */
export const StreamEventSchema = z
  .discriminatedUnion('event', [
    z.object({
      event: z.literal('launch'),
      id: eventId('<block>-<logIndex>'),
      data: LaunchItemSchema,
    }),
    z.object({
      event: z.literal('trade'),
      id: eventId("<block>-<logIndex>; a launch's first buy, kept at its launch's place, is <block>-<logIndex>-1"),
      data: TradeEventSchema,
    }),
    z.object({ event: z.literal('block'), id: eventId('<block>'), data: BlockEventSchema }),
  ])
  .meta({
    id: 'StreamEvent',
    description:
      'One event of the stream, as its SSE fields. Events come in chain order, each once; send the last id received ' +
      'as Last-Event-ID (or `after`) to resume with nothing missed and nothing repeated.',
  });

export type StreamEvent = z.infer<typeof StreamEventSchema>;
export type TradeEvent = z.infer<typeof TradeEventSchema>;
export type BlockEvent = z.infer<typeof BlockEventSchema>;
