import type { ServerResponse } from 'node:http';
import type { Address, Hex } from 'viem';
import type { StreamEventType } from '../../src-shared/schema/events';
import { compareStreamPositions, endOfBlock, type StreamPosition, streamIdOf } from '../core/events/streamPosition';
import type { IndexStore, StreamEntry } from '../store/indexStore';
import { launchItem } from './routes/launchesRoute';
import { tokenTradeItem } from './routes/tokenTradesRoute';

/** The indexed head the stream has caught up with once it has sent everything up to it. */
export interface StreamHead {
  block: number;
  hash: Hex | null;
  /** Unix seconds; null when not known. */
  timestamp: number | null;
}

export interface EventStreamOptions {
  /** A comment line this often keeps idle connections (and proxies) open. */
  keepAliveMs?: number;
  /** How long a client may leave what it was sent unread before it is dropped. */
  slowClientMs?: number;
  /** Rows read from the index at once while catching a client up. */
  pageSize?: number;
  /** Streams open at once; more are refused. */
  maxSubscribers?: number;
  /** What the stream tells EventSource clients to wait before reconnecting. */
  retryMs?: number;
}

/** What one client asked for. */
export interface Subscription {
  types: ReadonlySet<StreamEventType>;
  /** Only this token's launch and trades. */
  token: Address | null;
  /** Resume after this place; null: start at the indexed head. */
  after: StreamPosition | null;
  /** The origin the stream was asked on, for logo links served here. */
  origin: string;
}

interface Subscriber {
  readonly res: ServerResponse;
  readonly subscription: Subscription;
  /** The last place sent (or passed over as not wanted). */
  position: StreamPosition;
  /** The block of the last block event sent; -1 before any. */
  announced: number;
  pumping: boolean;
  again: boolean;
  ping: boolean;
  closed: boolean;
}

const DEFAULTS = {
  keepAliveMs: 15_000,
  slowClientMs: 10_000,
  pageSize: 256,
  maxSubscribers: 1_000,
  retryMs: 1_000,
} satisfies Required<EventStreamOptions>;

/**
 * GET /events: launches, trades and indexed blocks as Server-Sent Events, read from the index after each batch it
 * stores. Every client is caught up from the index itself, page by page and only as fast as it reads, so a resume is
 * the same read as the live stream (no gap, no repeat), and a slow client holds at most a page unsent before it is
 * dropped: nothing is buffered for it without bound.
 */
export class EventStream {
  private readonly subscribers = new Set<Subscriber>();
  private readonly options: Required<EventStreamOptions>;
  private readonly keepAlive: NodeJS.Timeout;

  constructor(
    private readonly store: IndexStore,
    private readonly head: () => StreamHead,
    options: EventStreamOptions = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
    this.keepAlive = setInterval(() => {
      for (const subscriber of this.subscribers) {
        subscriber.ping = true;
        void this.pump(subscriber);
      }
    }, this.options.keepAliveMs);
    this.keepAlive.unref();
  }

  /** Streams open now. */
  get size(): number {
    return this.subscribers.size;
  }

  /** Whether another stream may open. */
  hasRoom(): boolean {
    return this.subscribers.size < this.options.maxSubscribers;
  }

  /** Starts a stream on `res` (its headers not sent yet) and keeps it until the client goes or is dropped. */
  open(res: ServerResponse, subscription: Subscription): void {
    const head = this.head();
    const after = subscription.after;
    const subscriber: Subscriber = {
      res,
      subscription,
      position: after ?? endOfBlock(head.block),
      // A resume from a block event has that block announced already; a fresh stream announces where it starts.
      announced: after !== null && after.logIndex === Number.POSITIVE_INFINITY ? after.block : -1,
      pumping: false,
      again: false,
      ping: false,
      closed: false,
    };
    this.subscribers.add(subscriber);
    res.once('close', () => this.forget(subscriber));
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      // Proxies in front of the server must not hold events back.
      'x-accel-buffering': 'no',
    });
    res.write(`retry: ${this.options.retryMs}\n\n`);
    void this.pump(subscriber);
  }

  /** After the index stored a batch: every stream reads what is new. */
  notify(): void {
    for (const subscriber of this.subscribers) void this.pump(subscriber);
  }

  /**
   * After the index went back to `block` (a reorganization): streams past it go back too, announce the block, and
   * send what the new chain holds after it.
   */
  rolledBack(block: number): void {
    const end = endOfBlock(block);
    for (const subscriber of this.subscribers) {
      if (compareStreamPositions(subscriber.position, end) > 0) subscriber.position = end;
      if (subscriber.announced > block) subscriber.announced = -1;
      void this.pump(subscriber);
    }
  }

  /** Ends every stream (the server is stopping). */
  close(): void {
    clearInterval(this.keepAlive);
    for (const subscriber of this.subscribers) {
      subscriber.res.end();
      this.forget(subscriber);
    }
  }

  private forget(subscriber: Subscriber): void {
    subscriber.closed = true;
    this.subscribers.delete(subscriber);
  }

  /** Drops a client that does not read: its socket goes, and with it what was waiting for it. */
  private drop(subscriber: Subscriber): void {
    this.forget(subscriber);
    subscriber.res.destroy();
  }

  /** One writer per stream: whatever asks for a pump while one runs makes it go round once more. */
  private async pump(subscriber: Subscriber): Promise<void> {
    if (subscriber.pumping) {
      subscriber.again = true;
      return;
    }
    subscriber.pumping = true;
    try {
      do {
        subscriber.again = false;
        if (!(await this.catchUp(subscriber))) return;
      } while (subscriber.again && !subscriber.closed);
    } finally {
      subscriber.pumping = false;
    }
  }

  /** Sends everything up to the indexed head, then the head's block event; false once the client is gone. */
  private async catchUp(subscriber: Subscriber): Promise<boolean> {
    const { types } = subscriber.subscription;
    const kinds = { launches: types.has('launch') || types.has('trade'), trades: types.has('trade') };
    const head = this.head();
    let wrote = false;
    for (;;) {
      if (subscriber.closed) return false;
      const entries = this.store.streamAfter(subscriber.position, head.block, this.options.pageSize, kinds);
      const last = entries.at(-1);
      if (!last) break;
      subscriber.position = last.position;
      let text = '';
      for (const entry of entries) text += this.frameOf(entry, subscriber.subscription);
      if (text === '') continue;
      wrote = true;
      if (!(await this.write(subscriber, text))) return false;
    }
    if (
      subscriber.announced !== head.block &&
      compareStreamPositions(subscriber.position, endOfBlock(head.block)) <= 0
    ) {
      subscriber.position = endOfBlock(head.block);
      subscriber.announced = head.block;
      if (types.has('block')) {
        wrote = true;
        if (!(await this.write(subscriber, blockFrame(head)))) return false;
      }
    }
    if (subscriber.ping) {
      subscriber.ping = false;
      if (!wrote && !(await this.write(subscriber, ': keep-alive\n\n'))) return false;
    }
    return true;
  }

  /** The entry as an SSE frame, or '' when this client did not ask for it. */
  private frameOf(entry: StreamEntry, subscription: Subscription): string {
    const { types, token } = subscription;
    if (entry.kind === 'launch') {
      if (!types.has('launch') || (token !== null && entry.launch.token !== token)) return '';
      return frame('launch', streamIdOf(entry.position), launchItem(entry.launch, subscription.origin));
    }
    if (!types.has('trade') || (token !== null && entry.token !== token)) return '';
    return frame('trade', streamIdOf(entry.position), { ...tokenTradeItem(entry.trade), token: entry.token });
  }

  /** Writes, and when the socket is full waits for it to drain: false (and dropped) if it does not in time. */
  private write(subscriber: Subscriber, text: string): Promise<boolean> | boolean {
    if (subscriber.closed) return false;
    if (subscriber.res.write(text)) return true;
    return new Promise((resolve) => {
      const done = (drained: boolean) => {
        clearTimeout(timer);
        subscriber.res.off('drain', onDrain);
        subscriber.res.off('close', onClose);
        if (!drained && !subscriber.closed) this.drop(subscriber);
        resolve(drained && !subscriber.closed);
      };
      const onDrain = () => done(true);
      const onClose = () => done(false);
      const timer = setTimeout(() => done(false), this.options.slowClientMs);
      subscriber.res.once('drain', onDrain);
      subscriber.res.once('close', onClose);
    });
  }
}

function frame(event: StreamEventType, id: string, data: unknown): string {
  return `event: ${event}\nid: ${id}\ndata: ${JSON.stringify(data)}\n\n`;
}

function blockFrame(head: StreamHead): string {
  const at = head.timestamp === null ? null : new Date(head.timestamp * 1000).toISOString();
  return frame('block', String(head.block), { block: head.block, hash: head.hash, at });
}
