import type { ServerResponse } from 'node:http';
import type { Address, Hex } from 'viem';
import { MAX_STREAMS_PER_CLIENT, type RetractReason, type StreamEventType } from '../../src-shared/schema/events';
import { compareStreamPositions, endOfBlock, type StreamPosition, streamIdOf } from '../core/events/streamPosition';
import type { HeadBlock } from '../services/indexer/headChain';
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
  /** Streams one client (a network address, or an API key with a budget of its own) may keep open at once. */
  maxPerClient?: number;
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
  /** Launches and trades at the head too, before their block is confirmed (false: `?confirmed=only`). */
  head: boolean;
}

/** A block at the head whose launches or trades went to a client: its hash, and which of its events (by place). */
interface SentHeadBlock {
  block: number;
  hash: Hex;
  places: Set<string>;
}

/** A retract event owed to a client: head events past `block` are withdrawn; `id` when it takes the resume id back. */
interface Retraction {
  block: number;
  reason: RetractReason;
  id: boolean;
}

interface Subscriber {
  readonly res: ServerResponse;
  readonly subscription: Subscription;
  /** Who opened it, for the per-client limit. */
  readonly client: string;
  /** The last place sent (or passed over as not wanted). */
  position: StreamPosition;
  /** The block of the last block event sent; -1 before any. */
  announced: number;
  /** Head blocks whose events were sent and not yet confirmed or withdrawn, oldest first. */
  headSent: SentHeadBlock[];
  /** A retract event to send before anything else. */
  retract: Retraction | null;
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
  maxPerClient: MAX_STREAMS_PER_CLIENT,
  retryMs: 1_000,
} satisfies Required<EventStreamOptions>;

/**
 * GET /events: launches, trades and indexed blocks as Server-Sent Events, read from the index after each batch it
 * stores. Every client is caught up from the index itself, page by page and only as fast as it reads, so a resume is
 * the same read as the live stream (no gap, no repeat), and a slow client holds at most a page unsent before it is
 * dropped: nothing is buffered for it without bound.
 *
 * Head events: once a client is caught up with the index, the launches and trades of the blocks above it (the head
 * chain, read as each block comes) follow with `confirmed: false` and no id, so EventSource's last id stays on the
 * confirmed stream and a resume is as exact as before. When the index confirms such a block with the same hash, its
 * events are not sent again: a block event at or above it confirms them (sent whatever `types` asked). A block the
 * index holds with another hash, or that leaves the head chain, is withdrawn by a `retract` event before anything
 * that replaces it.
 */
export class EventStream {
  private readonly subscribers = new Set<Subscriber>();
  private readonly perClient = new Map<string, number>();
  private readonly options: Required<EventStreamOptions>;
  private readonly keepAlive: NodeJS.Timeout;

  constructor(
    private readonly store: IndexStore,
    private readonly head: () => StreamHead,
    options: EventStreamOptions = {},
    /**
     * The blocks at the head above a confirmed block that hold launches or trades; null where every block is confirmed
     * as it is made (0 confirmations): the stream then has no head events, and no retract events either.
     */
    private readonly headBlocks: ((confirmed: number) => readonly HeadBlock[]) | null = null,
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

  /** The most streams one client may keep open. */
  get maxPerClient(): number {
    return this.options.maxPerClient;
  }

  /** Streams `client` has open now. */
  openBy(client: string): number {
    return this.perClient.get(client) ?? 0;
  }

  /** Why another stream from `client` may not open: the server's limit, the client's own, or null when it may. */
  refusal(client: string): 'server' | 'client' | null {
    if (this.subscribers.size >= this.options.maxSubscribers) return 'server';
    if (this.openBy(client) >= this.options.maxPerClient) return 'client';
    return null;
  }

  /** Starts a stream on `res` (its headers not sent yet) for `client`, and keeps it until it goes or is dropped. */
  open(res: ServerResponse, asked: Subscription, client: string): void {
    const head = this.head();
    const subscription = { ...asked, head: asked.head && this.headBlocks !== null };
    const after = subscription.after;
    const subscriber: Subscriber = {
      res,
      subscription,
      client,
      position: after ?? endOfBlock(head.block),
      // A resume from a block event has that block announced already; a fresh stream announces where it starts.
      announced: after !== null && after.logIndex === Number.POSITIVE_INFINITY ? after.block : -1,
      headSent: [],
      // A resumed client may hold head events past where it resumes, which the chain may since have dropped: they are
      // withdrawn, and what is still there is sent again (confirmed, or at the head).
      retract: after !== null && wantsHead(subscription) ? { block: after.block, reason: 'resumed', id: false } : null,
      pumping: false,
      again: false,
      ping: false,
      closed: false,
    };
    this.subscribers.add(subscriber);
    this.perClient.set(client, this.openBy(client) + 1);
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

  /** After the index stored a batch, or the head chain changed: every stream reads what is new. */
  notify(): void {
    for (const subscriber of this.subscribers) void this.pump(subscriber);
  }

  /**
   * After the index went back to `block` (a reorganization): streams past it go back too, withdraw what was sent past
   * it (a retract event, with head events), announce the block, and send what the new chain holds after it.
   */
  rolledBack(block: number): void {
    const end = endOfBlock(block);
    for (const subscriber of this.subscribers) {
      const past = compareStreamPositions(subscriber.position, end) > 0;
      if (wantsHead(subscriber.subscription) && (past || subscriber.headSent.some((sent) => sent.block > block))) {
        owe(subscriber, { block, reason: 'reorganized', id: past });
      }
      subscriber.headSent = subscriber.headSent.filter((sent) => sent.block <= block);
      if (past) subscriber.position = end;
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
    if (!this.subscribers.delete(subscriber)) return;
    const left = this.openBy(subscriber.client) - 1;
    if (left > 0) this.perClient.set(subscriber.client, left);
    else this.perClient.delete(subscriber.client);
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

  /**
   * Sends what is owed first (a retraction), then everything up to the indexed head and the head's block event, then
   * the head events above it; false once the client is gone.
   */
  private async catchUp(subscriber: Subscriber): Promise<boolean> {
    const { types } = subscriber.subscription;
    const kinds = { launches: types.has('launch') || types.has('trade'), trades: types.has('trade') };
    const head = this.head();
    let wrote = false;
    if (subscriber.retract) {
      const owed = subscriber.retract;
      subscriber.retract = null;
      wrote = true;
      if (!(await this.write(subscriber, retractFrame(owed)))) return false;
    }
    const { confirmed, withdrawn } = this.confirmHeadSent(subscriber, head.block);
    if (withdrawn !== '') {
      wrote = true;
      if (!(await this.write(subscriber, withdrawn))) return false;
    }
    while (compareStreamPositions(subscriber.position, endOfBlock(head.block)) < 0) {
      if (subscriber.closed) return false;
      const entries = this.store.streamAfter(subscriber.position, head.block, this.options.pageSize, kinds);
      const last = entries.at(-1);
      if (!last) break;
      subscriber.position = last.position;
      let text = '';
      for (const entry of entries) {
        // Sent already as a head event of this very block: the block event below confirms it.
        if (confirmed.get(entry.position.block)?.has(placeOf(entry.position))) continue;
        text += this.frameOf(entry, subscriber.subscription, true);
      }
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
      if (types.has('block') || confirmed.size > 0) {
        wrote = true;
        if (!(await this.write(subscriber, blockFrame(head)))) return false;
      }
    }
    const atHead = this.headText(subscriber);
    if (atHead !== '') {
      wrote = true;
      if (!(await this.write(subscriber, atHead))) return false;
    }
    if (subscriber.ping) {
      subscriber.ping = false;
      if (!wrote && !(await this.write(subscriber, ': keep-alive\n\n'))) return false;
    }
    return true;
  }

  /**
   * The head blocks sent that the index now confirms, by block, with the places of the events sent of each; they
   * leave `headSent`. From the first that the index holds with another hash on, everything sent at the head is
   * withdrawn (the retract frame in `withdrawn`), and the index's events of those blocks are sent as they are.
   */
  private confirmHeadSent(
    subscriber: Subscriber,
    indexed: number,
  ): { confirmed: Map<number, Set<string>>; withdrawn: string } {
    const confirmed = new Map<number, Set<string>>();
    let withdrawn = '';
    let kept = 0;
    for (const sent of subscriber.headSent) {
      if (sent.block > indexed) break;
      if (this.store.blockHash(sent.block) !== sent.hash) {
        withdrawn = retractFrame({ block: sent.block - 1, reason: 'reorganized', id: false });
        subscriber.headSent = [];
        return { confirmed, withdrawn };
      }
      confirmed.set(sent.block, sent.places);
      kept++;
    }
    if (kept > 0) subscriber.headSent = subscriber.headSent.slice(kept);
    return { confirmed, withdrawn };
  }

  /**
   * The head events a client caught up with the index has not had yet: first a retraction of what it was sent of
   * blocks the head chain no longer holds (a reorganization at the head), then each newer block's launches and trades.
   */
  private headText(subscriber: Subscriber): string {
    if (!wantsHead(subscriber.subscription) || !this.headBlocks) return '';
    const indexed = this.head().block;
    // The index moved on since this pump read it: its events go first, on the next round.
    if (compareStreamPositions(subscriber.position, endOfBlock(indexed)) < 0) return '';
    // Blocks at or below where the client is (a resume from an id the index has not reached) come confirmed.
    const blocks = this.headBlocks(Math.max(indexed, subscriber.position.block));
    let text = '';
    const gone = subscriber.headSent.findIndex(
      (sent) => !blocks.some((block) => block.number === sent.block && block.hash === sent.hash),
    );
    if (gone >= 0) {
      text += retractFrame({
        block: (subscriber.headSent[gone] as SentHeadBlock).block - 1,
        reason: 'reorganized',
        id: false,
      });
      subscriber.headSent = subscriber.headSent.slice(0, gone);
    }
    for (const block of blocks) {
      if (subscriber.headSent.some((sent) => sent.block === block.number)) continue;
      const places = new Set<string>();
      for (const entry of block.entries) {
        const frame = this.frameOf(entry, subscriber.subscription, false);
        if (frame === '') continue;
        text += frame;
        places.add(placeOf(entry.position));
      }
      if (places.size > 0) subscriber.headSent.push({ block: block.number, hash: block.hash, places });
    }
    return text;
  }

  /** The entry as an SSE frame, or '' when this client did not ask for it; a head event has no id. */
  private frameOf(entry: StreamEntry, subscription: Subscription, confirmed: boolean): string {
    const { types, token } = subscription;
    const id = confirmed ? streamIdOf(entry.position) : null;
    if (entry.kind === 'launch') {
      if (!types.has('launch') || (token !== null && entry.launch.token !== token)) return '';
      const item = launchItem(entry.launch, subscription.origin);
      return frame('launch', id, confirmed ? item : { ...item, confirmed: false });
    }
    if (!types.has('trade') || (token !== null && entry.token !== token)) return '';
    const item = { ...tokenTradeItem(entry.trade), token: entry.token };
    return frame('trade', id, confirmed ? item : { ...item, confirmed: false });
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

/** Whether the client takes head events: it asked for launches or trades, and did not ask for confirmed ones only. */
function wantsHead(subscription: Subscription): boolean {
  return subscription.head && (subscription.types.has('launch') || subscription.types.has('trade'));
}

/** Owes a client a retraction: with one owed already, the lower block, and an id if either took the id back. */
function owe(subscriber: Subscriber, retraction: Retraction): void {
  const owed = subscriber.retract;
  subscriber.retract = owed
    ? {
        block: Math.min(owed.block, retraction.block),
        reason: owed.reason === 'reorganized' ? owed.reason : retraction.reason,
        id: owed.id || retraction.id,
      }
    : retraction;
}

/** An event's place within its block. */
const placeOf = (position: StreamPosition) => `${position.logIndex}-${position.part}`;

function frame(event: string, id: string | null, data: unknown): string {
  return `event: ${event}\n${id === null ? '' : `id: ${id}\n`}data: ${JSON.stringify(data)}\n\n`;
}

function blockFrame(head: StreamHead): string {
  const at = head.timestamp === null ? null : new Date(head.timestamp * 1000).toISOString();
  return frame('block', String(head.block), { block: head.block, hash: head.hash, at });
}

function retractFrame(retraction: Retraction): string {
  const { block, reason } = retraction;
  return frame('retract', retraction.id ? String(block) : null, { block, reason });
}
