/** One event of a text/event-stream, as the HTML standard's parser dispatches it. */
export interface ServerSentEvent {
  /** The `event:` field, `message` when none was given. */
  event: string;
  /** The `data:` lines, joined by LF. */
  data: string;
  /** The last `id:` seen on this stream, up to and including this event ('' before any). */
  id: string;
}

/**
 * The HTML standard's event-stream parser, fed text as it arrives in chunks of any size: lines end in CRLF, LF or CR
 * (a CR at the end of one chunk and an LF at the start of the next are one line end), `:` starts a comment, one
 * space after a field's colon is dropped, `data:` lines add up, `id:` holding NUL is ignored, `retry:` takes only
 * digits, a blank line dispatches, and an event not ended by a blank line is never dispatched.
 *
 * @example const parser = new EventStreamParser(); for (const event of parser.push(text)) handle(event);
 */
export class EventStreamParser {
  /** The last `retry:` the stream sent, in milliseconds. */
  retryMs: number | undefined;
  private lastEventId = '';
  private line = '';
  private afterCR = false;
  private started = false;
  private eventType = '';
  private data: string[] = [];
  /** Whether the event being read has an `id:` line of its own. */
  private idLine = false;
  private readonly withIdLine = new WeakSet<ServerSentEvent>();

  /**
   * Whether the event had an `id:` line of its own. Without one, its `id` is the stream's last (as the standard
   * keeps it for reconnecting), which a service may use to leave events out of the resume point.
   */
  hasOwnId(event: ServerSentEvent): boolean {
    return this.withIdLine.has(event);
  }

  /** Feeds the next piece of the stream's text; returns the events it completes, in order. */
  push(text: string): ServerSentEvent[] {
    let chunk = text;
    if (!this.started && chunk.length > 0) {
      this.started = true;
      if (chunk.startsWith('\uFEFF')) chunk = chunk.slice(1);
    }
    const events: ServerSentEvent[] = [];
    let start = 0;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (this.afterCR) {
        this.afterCR = false;
        // The LF of a CRLF whose CR ended the previous chunk (or the previous line) ends nothing of its own.
        if (c === LF && i === start) {
          start = i + 1;
          continue;
        }
      }
      if (c !== LF && c !== CR) continue;
      const line = this.line + chunk.slice(start, i);
      this.line = '';
      if (c === CR) {
        if (chunk.charCodeAt(i + 1) === LF) i++;
        else if (i + 1 === chunk.length) this.afterCR = true;
      }
      start = i + 1;
      const event = this.takeLine(line);
      if (event) events.push(event);
    }
    this.line += chunk.slice(start);
    return events;
  }

  private takeLine(line: string): ServerSentEvent | undefined {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.eventType = value;
    else if (field === 'data') this.data.push(value);
    else if (field === 'id') {
      if (!value.includes('\0')) {
        this.lastEventId = value;
        this.idLine = true;
      }
    } else if (field === 'retry' && /^\d+$/.test(value)) this.retryMs = Number(value);
    return undefined;
  }

  private dispatch(): ServerSentEvent | undefined {
    const event =
      this.data.length === 0
        ? undefined
        : { event: this.eventType || 'message', data: this.data.join('\n'), id: this.lastEventId };
    if (event && this.idLine) this.withIdLine.add(event);
    this.eventType = '';
    this.data = [];
    this.idLine = false;
    return event;
  }
}

const LF = 0x0a;
const CR = 0x0d;
