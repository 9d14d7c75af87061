import type { ServerResponse } from 'node:http';
import { getConnInfo } from '@hono/node-server/conninfo';
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import {
  EventsHeadersSchema,
  EventsQuerySchema,
  MAX_STREAMS_PER_CLIENT,
  StreamEventSchema,
} from '../../../src-shared/schema/events';
import { ApiError } from '../../core/errors';
import { parseStreamId } from '../../core/events/streamPosition';
import type { AppEnv } from '../env';
import type { EventStream } from '../eventStream';
import { errorResponses } from '../schemas';

/** What a client refused for holding too many streams is told to wait: a stream it closes frees its place at once. */
const STREAM_RETRY_SECONDS = 5;

const route = createRoute({
  method: 'get',
  path: '/events',
  summary: 'Launches and trades at the chain head and as they are confirmed (Server-Sent Events)',
  description:
    'A stream of `launch`, `trade`, `block` and `retract` events in chain order. Confirmed events are as they are ' +
    'indexed (a launch appears when GET /launches would list it): `launch` data is a GET /launches item, `trade` ' +
    'data a GET /tokens/{address}/trades item with its token, each with an id `<block>-<logIndex>`, and `block` data ' +
    'says every event up to that block was sent. Resume after a disconnect with the last id received as ' +
    'Last-Event-ID (EventSource does it by itself) or `after`: no confirmed event is missed or repeated.\n\n' +
    'Head events (an addition, on unless `confirmed=only`): once the stream has caught up with the index, the ' +
    'launches and trades of each new block at the chain head follow as soon as the block is seen, before the ' +
    'confirmations the index waits for, with `confirmed: false` in their data and no SSE id (so the last id, and a ' +
    'resume, stay on confirmed events). When the index confirms such a block with the same hash, its events are not ' +
    'sent again: a `block` event at or above it confirms every head event sent before it and not withdrawn (sent ' +
    'whatever `types` asks, when it confirms head events of this client). A `retract` event withdraws every head ' +
    'event sent past its `block`: the head was reorganized (`reorganized`; events of the new chain follow), or, first ' +
    'on a resumed stream, whatever head events the client held (`resumed`; those still on the chain come again, ' +
    'confirmed or at the head). A reorganization below the confirmed block sends a retract event with the id of its ' +
    'block, then the lower block event as before. With 0 confirmations (the devnet by default) every block is ' +
    'confirmed as it is made, and there are no head events. Head events wait while the index is more than 64 blocks ' +
    'behind the head.\n\n' +
    `At most ${MAX_STREAMS_PER_CLIENT} streams per client (its network address, or an API key with a budget of its ` +
    'own) and 1,000 in all: more are RATE_LIMITED with Retry-After. A `: keep-alive` comment comes every 15 seconds; ' +
    'a client that leaves what it was sent unread for 10 seconds is disconnected. An addition to v1: polling GET ' +
    '/launches works as before.',
  request: { query: EventsQuerySchema, headers: EventsHeadersSchema },
  responses: {
    200: {
      description: 'The event stream; each event as its SSE fields (data is one line of JSON)',
      content: { 'text/event-stream': { schema: StreamEventSchema } },
    },
    ...errorResponses(400, 429),
  },
});

/** GET /events: checks what was asked and who asks, then hands the socket to the event stream. */
export function eventsRoute(app: OpenAPIHono<AppEnv>, events: EventStream): void {
  app.openapi(route, (c) => {
    const { types, token, after: resumeAfter, confirmed } = c.req.valid('query');
    // Sent both ways, the header wins: EventSource sends it by itself on the URL that may carry an older `after`.
    const id = c.req.valid('header')['last-event-id'] ?? resumeAfter;
    const after = id === undefined ? null : parseStreamId(id);
    const client = clientOf(c);
    const refused = events.refusal(client.id);
    if (refused === 'server') {
      throw new ApiError('RATE_LIMITED', `${events.size} event streams are open, the most this server keeps`, {
        fix: 'Close a stream you no longer read (one stream can carry every event), then connect again.',
        retryAfterSeconds: STREAM_RETRY_SECONDS,
      });
    }
    if (refused === 'client') {
      throw new ApiError(
        'RATE_LIMITED',
        `${events.openBy(client.id)} event streams are open ${client.said}, the most one client may keep`,
        {
          fix:
            `Close a stream you no longer read, then connect again after Retry-After: one stream can carry every ` +
            `event (leave types and token out and sort them on your side). At most ${events.maxPerClient} a client.`,
          retryAfterSeconds: STREAM_RETRY_SECONDS,
        },
      );
    }
    const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
    if (!outgoing) throw new Error('GET /events needs the Node server: no response socket to stream to');
    events.open(
      outgoing,
      { types, token: token ?? null, after, origin: new URL(c.req.url).origin, head: !confirmed },
      client.id,
    );
    // The stream answers on the socket itself; the adapter writes nothing more.
    return new Response(null, { headers: { 'x-hono-already-sent': '1' } }) as never;
  });
}

/**
 * Who a stream is counted against: an API key the app's owner gave a budget of its own, by its id; anyone else by
 * network address (a key made by signing a challenge costs nothing, so it adds no streams, as it adds no requests).
 */
function clientOf(c: Context<AppEnv>): { id: string; said: string } {
  const key = c.get('apiKey');
  if (key?.budget) return { id: `key ${key.id}`, said: `with the key ${key.id} ("${key.label}")` };
  let address = 'unknown';
  try {
    address = getConnInfo(c).remote.address ?? address;
  } catch {
    // Not on the Node server (no socket to read the address of): every such client counts as one.
  }
  return { id: address, said: `from ${address}` };
}
