import { CompanionError, errorOfAnswer, unreachable } from '../companionError';
import type { FetchLike } from '../createCompanion';
import type { components } from '../schema';
import { sleep } from '../sleep';
import { EventStreamParser, type ServerSentEvent } from './eventStreamParser';

/**
 * One event of the stream, typed by the document's StreamEvent: discriminated by `event`.
 * - `launch`: a GET /launches item; `id` is `<block>-<logIndex>`.
 * - `trade`: a GET /tokens/{address}/trades item with its `token`; `id` is `<block>-<logIndex>` (a launch's first
 *   buy, kept at its launch's place: `<block>-<logIndex>-1`).
 * - `block`: everything up to `data.block` has been sent; `id` is the block. First on a fresh connection, and again
 *   with a lower block when the chain was reorganized back to it (what follows replaces what was sent past it).
 * - A head event (a service with head events, unless `confirmed: 'only'`): a launch or trade with `confirmed: false`
 *   in its data and no `id`, sent as soon as its block is seen at the head; a later block event at or above its block
 *   confirms it.
 * - `retract`: every event sent past `data.block` is withdrawn (a reorganization, or a resumed stream's head events).
 */
export type CompanionEvent = components['schemas']['StreamEvent'];
export type EventType = CompanionEvent['event'];
export type LaunchEvent = Extract<CompanionEvent, { event: 'launch' }>;
export type TradeEvent = Extract<CompanionEvent, { event: 'trade' }>;
export type BlockEvent = Extract<CompanionEvent, { event: 'block' }>;
export type RetractEvent = Extract<CompanionEvent, { event: 'retract' }>;

/** Every kind the document lists: a kind added there fails the type check here until this client knows it. */
const EVENT_TYPES: readonly string[] = Object.keys({
  launch: 0,
  trade: 0,
  block: 0,
  retract: 0,
} satisfies Record<EventType, 0>);

export interface EventsOptions<T extends EventType = EventType> {
  /**
   * Only these kinds (all by default); the events yielded are typed accordingly. `retract` is asked of the client
   * alone: the service sends retract events with the launches and trades they withdraw, whatever its `types` says.
   */
  types?: T[];
  /** Only this token's launch and trades; block events still come. */
  token?: string;
  /** An event id to resume after (the `id` of the last event handled). */
  after?: string;
  /**
   * `only`: launches and trades only once their block is confirmed (`?confirmed=only`), never at the head first.
   * Left out, the service's default: a service that sends head events sends each launch and trade as soon as its
   * block is seen, with `confirmed: false` (isConfirmed tells), and its confirmation after.
   */
  confirmed?: 'only';
  /** Stops the stream: the loop ends, and the connection is closed. */
  signal?: AbortSignal;
  /** The longest wait between two reconnections (30 s by default); the first waits what the server's `retry:` says. */
  maxRetryMs?: number;
}

export interface EventConnection {
  baseUrl: string;
  headers: Record<string, string>;
  fetch: FetchLike;
}

/** The wait before reconnecting when the server has not said (`retry:`), doubled at each failure in a row. */
const DEFAULT_RETRY_MS = 1_000;

/**
 * GET /events as an async iterator. It reconnects by itself when the connection drops (or the service answers a
 * retryable error), backing off, and resumes with `Last-Event-ID` set to the last event it yielded, so the loop sees
 * no gap and no duplicate. It ends when `signal` aborts or the loop is left (closing the connection), and throws a
 * CompanionError for an error that retrying cannot help (INVALID_CURSOR, INVALID_ADDRESS …) or when the first
 * connection cannot be made at all (UNREACHABLE).
 *
 * @example for await (const event of streamEvents(connection, { types: ['trade'], token })) console.log(event.event, event.id);
 */
export async function* streamEvents<T extends EventType = EventType>(
  connection: EventConnection,
  options: EventsOptions<T> = {},
): AsyncGenerator<Extract<CompanionEvent, { event: T }>, void, undefined> {
  const wanted: readonly string[] = options.types ?? EVENT_TYPES;
  const { signal, maxRetryMs = 30_000 } = options;
  const url = eventsUrl(connection.baseUrl, options);
  let lastId: string | undefined;
  let retryMs = DEFAULT_RETRY_MS;
  let failures = 0;
  let connected = false;
  const backoff = () => Math.min(maxRetryMs, retryMs * 2 ** failures++);

  while (!signal?.aborted) {
    const controller = new AbortController();
    const stop = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', stop, { once: true });
    try {
      let response: Response;
      try {
        response = await connection.fetch(
          new Request(url, {
            headers: {
              ...connection.headers,
              accept: 'text/event-stream',
              ...(lastId === undefined ? {} : { 'last-event-id': lastId }),
            },
            signal: controller.signal,
          }),
        );
      } catch (cause) {
        if (signal?.aborted) return;
        if (!connected) throw cause instanceof TypeError ? unreachable(url, cause) : cause;
        await pause(backoff(), signal);
        continue;
      }
      if (!response.ok) {
        const error = errorOfAnswer(response, await response.json().catch(() => undefined));
        if (!error.retry) throw error;
        await pause(Math.max(error.retry.afterMs, backoff()), signal);
        continue;
      }
      const type = response.headers.get('content-type') ?? '';
      if (!type.startsWith('text/event-stream') || !response.body) {
        await response.body?.cancel();
        throw new CompanionError({
          status: response.status,
          code: 'BAD_RESPONSE',
          message: `The service answered ${url} with ${type || 'no content type'}, not an event stream.`,
          retry: false,
        });
      }
      connected = true;
      const parser = new EventStreamParser();
      try {
        for await (const message of readEvents(response.body, parser, controller.signal)) {
          if (signal?.aborted) return;
          if (parser.retryMs !== undefined) retryMs = parser.retryMs;
          // A kind not asked for (or unknown to this client) is passed over, and never becomes the resume id.
          if (!wanted.includes(message.event)) continue;
          const event = eventOf(message, parser.hasOwnId(message)) as Extract<CompanionEvent, { event: T }> | undefined;
          if (!event) continue;
          if (event.id) lastId = event.id;
          failures = 0;
          yield event;
        }
      } catch (cause) {
        if (cause instanceof CompanionError) throw cause;
        // A dropped connection: read errors end here, and the stream is opened again below.
      }
      if (parser.retryMs !== undefined) retryMs = parser.retryMs;
      if (signal?.aborted) return;
      await pause(backoff(), signal);
    } finally {
      signal?.removeEventListener('abort', stop);
      controller.abort();
    }
  }
}

function eventsUrl(baseUrl: string, options: EventsOptions<EventType>): string {
  const query = new URLSearchParams();
  // Retract events are not a type the service filters on: they come with the launches and trades they withdraw, and
  // the client passes them on only when `types` asks for them.
  const served = options.types?.filter((type) => type !== 'retract');
  if (served && served.length > 0) query.set('types', served.join(','));
  if (options.token !== undefined) query.set('token', options.token);
  if (options.after !== undefined) query.set('after', options.after);
  if (options.confirmed !== undefined) query.set('confirmed', options.confirmed);
  const search = query.toString();
  return `${baseUrl.replace(/\/+$/, '')}/events${search ? `?${search}` : ''}`;
}

/**
 * The stream's events as its bytes arrive, decoded as UTF-8 across chunk boundaries. An abort cancels the reader
 * itself: fetch's own abort only asks the body stream to cancel, which a stream locked to a reader refuses, and the
 * read waiting on it would then wait for the server's next bytes, or for ever.
 */
async function* readEvents(body: ReadableStream<Uint8Array>, parser: EventStreamParser, signal: AbortSignal) {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  const cancel = () => {
    reader.cancel().catch(() => {});
  };
  signal.addEventListener('abort', cancel, { once: true });
  try {
    for (;;) {
      if (signal.aborted) return;
      const { done, value } = await reader.read();
      if (done) return;
      yield* parser.push(decoder.decode(value, { stream: true }));
    }
  } finally {
    signal.removeEventListener('abort', cancel);
    reader.cancel().catch(() => {});
  }
}

/**
 * Whether an event's block is confirmed: false only for a head event (`confirmed: false`, sent as soon as its block is
 * seen, before confirmation), true for everything a service without head events sends.
 *
 * @example if (event.event === 'launch' && !isConfirmed(event)) console.log('seen at the head', event.data.token);
 */
export function isConfirmed(event: CompanionEvent): boolean {
  return (event.data as { confirmed?: unknown }).confirmed !== false;
}

/**
 * The typed event of a message; undefined for a kind this client does not know (a newer service's, such as a
 * confirmation), which is passed over. Fields the document does not list yet (`confirmed`) are kept as they came.
 */
function eventOf(message: ServerSentEvent, ownIdLine: boolean): CompanionEvent | undefined {
  if (!EVENT_TYPES.includes(message.event)) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(message.data);
  } catch (cause) {
    throw new CompanionError(
      {
        status: null,
        code: 'BAD_RESPONSE',
        message: `The ${message.event} event ${message.id} does not carry JSON.`,
        retry: false,
      },
      { cause },
    );
  }
  // An event without an id line of its own carries the stream's last id (as the standard keeps it): the document
  // gives head events and a shallow retract none, so that a resume always goes on from a confirmed event.
  const ownId = ownIdLine && message.id !== '';
  return { event: message.event, ...(ownId ? { id: message.id } : {}), data } as CompanionEvent;
}

/** Waits before reconnecting; an abort ends the wait early (the loop then sees the signal and stops). */
async function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  await sleep(ms, signal).catch(() => {});
}
