import { vi } from 'vitest';
/** One event as read off the wire. */
export interface SseEvent {
  event: string;
  id: string | null;
  data: string;
}

export interface SseConnection {
  response: Response;
  /** Every event received so far, in order. */
  events: SseEvent[];
  /** Comment lines received so far (without the colon). */
  comments: string[];
  /** Settles when the server ends the stream (or it is closed here). */
  ended: Promise<void>;
  close(): void;
}

/**
 * Opens a Server-Sent Events stream with fetch and collects what it sends: the tests' own small reader, kept apart
 * from the client package's, so the server is checked against the format and not against our client.
 */
export async function openSse(
  url: string,
  headers: Record<string, string> = {},
  onEvent?: (event: SseEvent) => void,
): Promise<SseConnection> {
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: controller.signal,
  });
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const read = async () => {
    if (!response.ok || !response.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    let current: SseEvent = { event: 'message', id: null, data: '' };
    let hasData = false;
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let start = 0;
      for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n', start)) {
        const line = buffer.slice(start, end).replace(/\r$/, '');
        start = end + 1;
        if (line === '') {
          if (hasData) {
            events.push(current);
            onEvent?.(current);
          }
          current = { event: 'message', id: null, data: '' };
          hasData = false;
        } else if (line.startsWith(':')) {
          comments.push(line.slice(1).trim());
        } else {
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'event') current.event = text;
          else if (field === 'id') current.id = text;
          else if (field === 'data') {
            current.data = hasData ? `${current.data}\n${text}` : text;
            hasData = true;
          }
        }
      }
      buffer = buffer.slice(start);
    }
  };
  const ended = read().catch(() => {});
  return { response, events, comments, ended, close: () => controller.abort() };
}

/** Waits until the stream has an event that `match` accepts, and returns it. */
export async function received(
  connection: SseConnection,
  match: (event: SseEvent) => boolean,
  timeoutMs = 10_000,
): Promise<SseEvent> {
  return vi.waitFor(
    () => {
      const event = connection.events.find(match);
      if (!event) throw new Error(`not received yet (${connection.events.length} events so far)`);
      return event;
    },
    { timeout: timeoutMs, interval: 10 },
  );
}
