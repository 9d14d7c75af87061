import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { OpenAPIHono } from '@hono/zod-openapi';
import { type Address, getAddress, type Hex, keccak256, toHex, zeroAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ServiceEvent } from '../src-main/chain/serviceEvents';
import { errorHandler } from '../src-main/http/errorHandler';
import { EventStream, type StreamHead } from '../src-main/http/eventStream';
import { eventsRoute } from '../src-main/http/routes/eventsRoute';
import { silentLogger } from '../src-main/log/createLogger';
import type { HeadBlock } from '../src-main/services/indexer/headChain';
import { streamEntriesOf } from '../src-main/services/indexer/streamEntriesOf';
import { IndexStore } from '../src-main/store/indexStore';
import { type Db, openDatabase } from '../src-main/store/openDatabase';
import { openSse, type SseConnection, type SseEvent } from './support/sseReader';

/*
 * The stream's side of head events, step by step over a real SQLite index and the real route on a real port, with the
 * blocks at the head given as the head chain would hold them: what is sent at the head, what a confirmation sends and
 * does not send again, and each way a head event is withdrawn. test/headEvents.http.test.ts shows the same on the
 * devnet, with the head chain reading the chain.
 */

const address = (label: string): Address => getAddress(keccak256(toHex(label)).slice(0, 42));
const hashOf = (label: string): Hex => keccak256(toHex(label));
const time = (block: number) => 1_700_000_000 + block;

function launched(token: string, block: number, logIndex: number): ServiceEvent {
  return {
    kind: 'launched',
    block,
    logIndex,
    txHash: hashOf(`tx ${token}`),
    token: address(token),
    creator: address('creator'),
    pool: address(`pool ${token}`),
    pair: address('wbnb'),
    fee: 10000,
    supply: 10n ** 27n,
    openingTick: -207200,
    salt: hashOf(token),
    name: token,
    symbol: token.toUpperCase(),
    metadataURI: 'ipfs://bafkreimetadata',
    royaltyTo: zeroAddress,
    burnBps: 0,
    ranges: [{ tickLower: -207200, tickUpper: 887200, bps: 10000 }],
  };
}

function firstBuy(token: string, block: number, logIndex: number): ServiceEvent {
  return {
    kind: 'firstBuy',
    block,
    logIndex,
    txHash: hashOf(`tx ${token}`),
    token: address(token),
    spent: 10n ** 17n,
    tokens: 10n ** 24n,
    siteFee: 10n ** 15n,
  };
}

function traded(token: string, block: number, logIndex: number, trader: string): ServiceEvent {
  return {
    kind: 'trade',
    block,
    logIndex,
    txHash: hashOf(`tx ${trader} ${block}`),
    trader: address(trader),
    token: address(token),
    referrer: zeroAddress,
    pair: address('wbnb'),
    isBuy: true,
    pairAmount: 2n * 10n ** 17n,
    tokenAmount: 3n * 10n ** 24n,
    fee: 2n * 10n ** 15n,
    cut: 0n,
  };
}

/** A block at the head as the head chain holds it. */
function headBlock(number: number, hash: Hex, events: ServiceEvent[]): HeadBlock {
  return { number, hash, entries: streamEntriesOf(events, time) };
}

let dir: string;
let db: Db;
let store: IndexStore;
let head: StreamHead;
/** What the head chain holds above the indexed block. */
let atHead: HeadBlock[] = [];
let stream: EventStream;
let url: string;
let close: () => Promise<void>;
const open: SseConnection[] = [];

/** Stores a block in the index with its hash, as the indexer does once it is confirmed, and tells the streams. */
function confirm(block: number, hash: Hex, events: ServiceEvent[]): void {
  store.write({ events, timestamps: new Map([[block, time(block)]]), hashes: new Map([[block, hash]]), to: block });
  head = { block, hash, timestamp: time(block) };
  stream.notify();
}

/** The head chain changed. */
function seeAtHead(blocks: HeadBlock[]): void {
  atHead = blocks;
  stream.notify();
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'companion-head-stream-'));
  db = openDatabase(join(dir, 'app.sqlite'));
  store = new IndexStore(db);
  store.open({ chainId: 31337, factory: address('factory'), router: address('router'), referrals: null, fromBlock: 1 });
  store.write({
    events: [launched('old', 5, 0)],
    timestamps: new Map([[5, time(5)]]),
    hashes: new Map([[10, hashOf('block 10')]]),
    to: 10,
  });
  head = { block: 10, hash: hashOf('block 10'), timestamp: time(10) };
  stream = new EventStream(
    store,
    () => head,
    {},
    (confirmed) => atHead.filter((block) => block.number > confirmed),
  );
  const api = new OpenAPIHono();
  eventsRoute(api as never, stream);
  api.onError(errorHandler(silentLogger()) as never);
  const server = serve({ fetch: api.fetch, hostname: '127.0.0.1', port: 0 });
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`;
  close = () => {
    stream.close();
    return new Promise<void>((resolve) => {
      server.close(() => resolve());
      (server as { closeAllConnections?: () => void }).closeAllConnections?.();
    });
  };
});
afterAll(async () => {
  for (const connection of open) connection.close();
  await close?.();
  db?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function subscribe(query = '', headers: Record<string, string> = {}): Promise<SseConnection> {
  const connection = await openSse(`${url}${query}`, headers);
  open.push(connection);
  return connection;
}

/** Waits until the stream has `count` events, and returns the ones after the first `from`. */
async function eventsUpTo(connection: SseConnection, count: number, from = 0): Promise<SseEvent[]> {
  await vi.waitFor(() => expect(connection.events.length).toBeGreaterThanOrEqual(count), { timeout: 5_000 });
  // Anything more would come with the same writes: give it a moment to show.
  await new Promise((resolve) => setTimeout(resolve, 50));
  return connection.events.slice(from);
}

/** An event as [event, id, data] with data parsed, for comparing sequences. */
const shown = (event: SseEvent) => [event.event, event.id, JSON.parse(event.data)] as const;
const kinds = (events: SseEvent[]) =>
  events.map((event) => {
    const data = JSON.parse(event.data);
    if (event.event === 'block' || event.event === 'retract')
      return `${event.event} ${data.block}${event.id === null ? '' : ' #'}`;
    return `${event.event} ${data.block}${data.confirmed === false ? ' head' : ` #${event.id}`}`;
  });

describe('head events on the stream', () => {
  let live: SseConnection;
  let only: SseConnection;
  let launchesOnly: SseConnection;

  it('sends the blocks at the head after the indexed block, each event with confirmed: false and no id', async () => {
    live = await subscribe();
    only = await subscribe('?confirmed=only');
    launchesOnly = await subscribe('?types=launch');
    await eventsUpTo(live, 1);
    seeAtHead([
      headBlock(11, hashOf('A11'), [firstBuy('moon', 11, 0), launched('moon', 11, 1)]),
      headBlock(12, hashOf('A12'), [traded('moon', 12, 3, 'alice')]),
    ]);
    const events = await eventsUpTo(live, 4);
    expect(kinds(events)).toEqual(['block 10 #', 'launch 11 head', 'trade 11 head', 'trade 12 head']);
    const [, id, data] = shown(events[1] as SseEvent);
    expect(id).toBeNull();
    expect(data).toMatchObject({ token: address('moon'), block: 11, confirmed: false, image: null });
    expect(JSON.parse((events[2] as SseEvent).data)).toMatchObject({ firstBuy: true, confirmed: false });
    expect(kinds(await eventsUpTo(launchesOnly, 1))).toEqual(['launch 11 head']);
  });

  it('confirms a block indexed with the hash it had at the head by a block event, without sending its events again', async () => {
    confirm(11, hashOf('A11'), [firstBuy('moon', 11, 0), launched('moon', 11, 1)]);
    expect(kinds(await eventsUpTo(live, 5, 4))).toEqual(['block 11 #']);
    // Not asked for block events, it gets this one all the same: it confirms head events it was sent.
    expect(kinds(await eventsUpTo(launchesOnly, 2, 1))).toEqual(['block 11 #']);
    // ?confirmed=only is the stream as it was: the launch and its first buy with their ids, once indexed.
    expect(kinds(await eventsUpTo(only, 4))).toEqual([
      'block 10 #',
      'launch 11 #11-1',
      'trade 11 #11-1-1',
      'block 11 #',
    ]);
  });

  it('withdraws head events of a block indexed with another hash, then sends the indexed events', async () => {
    confirm(12, hashOf('B12'), [traded('moon', 12, 0, 'bob')]);
    seeAtHead([]);
    expect(kinds(await eventsUpTo(live, 8, 5))).toEqual(['retract 11', 'trade 12 #12-0', 'block 12 #']);
    expect(JSON.parse((live.events[5] as SseEvent).data)).toEqual({ block: 11, reason: 'reorganized' });
    expect(kinds(await eventsUpTo(only, 6, 4))).toEqual(['trade 12 #12-0', 'block 12 #']);
  });

  it('withdraws head events of a block the head chain dropped, before the block that replaced it', async () => {
    seeAtHead([headBlock(13, hashOf('A13'), [launched('orphan', 13, 0)])]);
    expect(kinds(await eventsUpTo(live, 9, 8))).toEqual(['launch 13 head']);
    seeAtHead([headBlock(13, hashOf('C13'), [launched('survivor', 13, 2)])]);
    expect(kinds(await eventsUpTo(live, 11, 9))).toEqual(['retract 12', 'launch 13 head']);
    expect(JSON.parse((live.events[10] as SseEvent).data).token).toBe(address('survivor'));
    // The same head seen again sends nothing.
    seeAtHead([headBlock(13, hashOf('C13'), [launched('survivor', 13, 2)])]);
    expect(await eventsUpTo(live, 11, 11)).toEqual([]);
  });

  it('after a reorganization below the indexed block, withdraws with the id of the block gone back to, then the lower block event', async () => {
    store.rollBack(11, hashOf('A11'));
    head = { block: 11, hash: hashOf('A11'), timestamp: time(11) };
    atHead = [];
    stream.rolledBack(11);
    const events = await eventsUpTo(live, 13, 11);
    expect(events.map(shown)).toEqual([
      ['retract', '11', { block: 11, reason: 'reorganized' }],
      ['block', '11', { block: 11, hash: hashOf('A11'), at: new Date(time(11) * 1000).toISOString() }],
    ]);
    // ?confirmed=only as before: the lower block event alone.
    expect(kinds(await eventsUpTo(only, 7, 6))).toEqual(['block 11 #']);
    expect(only.events.some((event) => event.event === 'retract' || JSON.parse(event.data).confirmed === false)).toBe(
      false,
    );
  });

  it('starts a resumed stream with a retract event at the resume place, then the index, then the head', async () => {
    seeAtHead([headBlock(12, hashOf('D12'), [traded('moon', 12, 1, 'carol')])]);
    const resumed = await subscribe('', { 'last-event-id': '10' });
    const events = await eventsUpTo(resumed, 5);
    expect(shown(events[0] as SseEvent)).toEqual(['retract', null, { block: 10, reason: 'resumed' }]);
    expect(kinds(events)).toEqual(['retract 10', 'launch 11 #11-1', 'trade 11 #11-1-1', 'block 11 #', 'trade 12 head']);
    // With confirmed=only a resume is as before: no retract event.
    const resumedOnly = await subscribe('?confirmed=only', { 'last-event-id': '10' });
    expect(kinds(await eventsUpTo(resumedOnly, 3))).toEqual(['launch 11 #11-1', 'trade 11 #11-1-1', 'block 11 #']);
  });
});
