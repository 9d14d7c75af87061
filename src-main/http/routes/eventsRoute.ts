import type { ServerResponse } from 'node:http';
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { getAddress, isAddress } from 'viem';
import {
  EventsQuerySchema,
  STREAM_EVENT_TYPES,
  StreamEventSchema,
  type StreamEventType,
} from '../../../src-shared/schema/events';
import { ApiError } from '../../core/errors';
import { parseStreamId, type StreamPosition } from '../../core/events/streamPosition';
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
  request: { query: EventsQuerySchema },
  responses: {
    200: {
      description: 'The event stream; each event as its SSE fields (data is one line of JSON)',
      content: { 'text/event-stream': { schema: StreamEventSchema } },
    },
    ...errorResponses(400, 429),
  },
});

function readTypes(value: string | undefined): Set<StreamEventType> {
  if (value === undefined) return new Set(STREAM_EVENT_TYPES);
  const types = value.split(',');
  const unknown = types.find((type) => !(STREAM_EVENT_TYPES as readonly string[]).includes(type));
  if (unknown !== undefined) {
    throw new ApiError('INVALID_BODY', `types holds "${unknown.slice(0, 40)}", which is not an event type`, {
      field: 'types',
      fix: `Send a comma-separated list of ${STREAM_EVENT_TYPES.join(', ')}, or leave types out for all of them.`,
    });
  }
  return new Set(types as StreamEventType[]);
}

function readToken(value: string | undefined) {
  if (value === undefined) return null;
  if (!isAddress(value, { strict: false })) {
    throw new ApiError('INVALID_ADDRESS', `token must be a 0x address, not "${value.slice(0, 60)}"`, {
      field: 'token',
    });
  }
  return getAddress(value);
}

function readAfter(header: string | undefined, query: string | undefined): StreamPosition | null {
  const [value, field] = header !== undefined ? [header, 'Last-Event-ID'] : [query, 'after'];
  if (value === undefined) return null;
  const position = parseStreamId(value.trim());
  if (!position) {
    throw new ApiError('INVALID_CURSOR', `${field} must be an event id of this stream, not "${value.slice(0, 40)}"`, {
      field,
      fix: 'Send the id of the last event received unchanged (e.g. 812-3 or 812), or leave it out to start now.',
    });
  }
  return position;
}

/** GET /events: checks what was asked, then hands the socket to the event stream. */
export function eventsRoute(app: OpenAPIHono<AppEnv>, events: EventStream): void {
  app.openapi(route, (c) => {
    const types = readTypes(c.req.query('types'));
    const token = readToken(c.req.query('token'));
    const after = readAfter(c.req.header('last-event-id'), c.req.query('after'));
    if (!events.hasRoom()) {
      throw new ApiError('RATE_LIMITED', `${events.size} event streams are open, the most this server keeps`, {
        fix: 'Close a stream you no longer read (one stream can carry every event), then connect again.',
      });
    }
    const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
    if (!outgoing) throw new Error('GET /events needs the Node server: no response socket to stream to');
    events.open(outgoing, { types, token, after, origin: new URL(c.req.url).origin });
    // The stream answers on the socket itself; the adapter writes nothing more.
    return new Response(null, { headers: { 'x-hono-already-sent': '1' } }) as never;
  });
}
