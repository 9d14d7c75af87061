import { z } from 'zod';
import { AddressSchema } from './common';
import { LaunchItemSchema } from './launches';
import { TokenTradeSchema } from './tokens';

export const STREAM_EVENT_TYPES = ['launch', 'trade', 'block'] as const;
export type StreamEventType = (typeof STREAM_EVENT_TYPES)[number];

/** GET /events' query. */
export const EventsQuerySchema = z.object({
  types: z.string().optional().meta({
    description: 'comma-separated event types to send: launch, trade, block (default all)',
    example: 'launch',
  }),
  token: z.string().optional().meta({ description: "only this token's launch and trades (block events still come)" }),
  after: z
    .string()
    .optional()
    .meta({
      description:
        'an event id to resume after, as the Last-Event-ID header does (the header wins); without either, the stream ' +
        'starts at the indexed block',
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
