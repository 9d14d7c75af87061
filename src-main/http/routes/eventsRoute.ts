import type { ServerResponse } from 'node:http';
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { EventsHeadersSchema, EventsQuerySchema, StreamEventSchema } from '../../../src-shared/schema/events';
import { ApiError } from '../../core/errors';
import { parseStreamId } from '../../core/events/streamPosition';
import type { AppEnv } from '../env';
import type { EventStream } from '../eventStream';
import { errorResponses } from '../schemas';

const route = createRoute({
  method: 'get',
  path: '/events',
  summary: 'Launches, trades and indexed blocks as they are indexed (Server-Sent Events)',
  description:
    'A stream of `launch`, `trade` and `block` events in chain order, each as it is indexed (a launch appears here ' +
    'when GET /launches would list it). `launch` data is a GET /launches item, `trade` data a GET ' +
    '/tokens/{address}/trades item with its token, `block` data says every event up to that block was sent. Resume ' +
    'after a disconnect with the last id received as Last-Event-ID (EventSource does it by itself) or `after`: ' +
    'nothing is missed or repeated. A `: keep-alive` comment comes every 15 seconds; a client that leaves what it was ' +
    'sent unread for 10 seconds is disconnected. An addition to v1: polling GET /launches works as before.',
  request: { query: EventsQuerySchema, headers: EventsHeadersSchema },
  responses: {
    200: {
      description: 'The event stream; each event as its SSE fields (data is one line of JSON)',
      content: { 'text/event-stream': { schema: StreamEventSchema } },
    },
    ...errorResponses(400, 429),
  },
});

/** GET /events: checks what was asked, then hands the socket to the event stream. */
export function eventsRoute(app: OpenAPIHono<AppEnv>, events: EventStream): void {
  app.openapi(route, (c) => {
    const { types, token, after: resumeAfter } = c.req.valid('query');
    // Sent both ways, the header wins: EventSource sends it by itself on the URL that may carry an older `after`.
    const id = c.req.valid('header')['last-event-id'] ?? resumeAfter;
    const after = id === undefined ? null : parseStreamId(id);
    if (!events.hasRoom()) {
      throw new ApiError('RATE_LIMITED', `${events.size} event streams are open, the most this server keeps`, {
        fix: 'Close a stream you no longer read (one stream can carry every event), then connect again.',
      });
    }
    const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
    if (!outgoing) throw new Error('GET /events needs the Node server: no response socket to stream to');
    events.open(outgoing, { types, token: token ?? null, after, origin: new URL(c.req.url).origin });
    // The stream answers on the socket itself; the adapter writes nothing more.
    return new Response(null, { headers: { 'x-hono-already-sent': '1' } }) as never;
  });
}
