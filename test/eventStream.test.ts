import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { OpenAPIHono } from '@hono/zod-openapi';
import { type Address, getAddress, type Hex, keccak256, toHex } from 'viem';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ServiceEvent } from '../src-main/chain/serviceEvents';
import { errorHandler } from '../src-main/http/errorHandler';
import { EventStream, type EventStreamOptions } from '../src-main/http/eventStream';
import { eventsRoute } from '../src-main/http/routes/eventsRoute';
import { silentLogger } from '../src-main/log/createLogger';
import { IndexStore } from '../src-main/store/indexStore';
import type { Db } from '../src-main/store/openDatabase';
import { openDatabase } from '../src-main/store/openDatabase';
import { openSse } from './support/sseReader';

/*
 * The stream over a large index, written straight into a real SQLite file (50,000 trades and 500 launches, half with
 * a first buy, over 1,000 blocks) and served by the real route on a real port: a reader that keeps up gets every event
 * in order across many pages; a reader that stops reading is dropped while the server holds little for it.
 */

const BLOCKS = 1_000;
const TRADES_PER_BLOCK = 50;
const LAUNCH_EVERY = 2;
const address = (label: string): Address => getAddress(keccak256(toHex(label)).slice(0, 42));
const tokens = Array.from({ length: 20 }, (_, i) => address(`token ${i}`));

let dir: string;
let db: Db;
let store: IndexStore;
/** The bytes of the whole index as the stream sends it, measured by the reader that keeps up. */
let wholeBytes = 0;
let head = { block: 0, hash: null as Hex | null, timestamp: null as number | null };

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'companion-stream-'));
  db = openDatabase(join(dir, 'app.sqlite'));
  store = new IndexStore(db);
  store.open({ chainId: 31337, factory: address('factory'), router: address('router'), referrals: null, fromBlock: 1 });
  for (let block = 1; block <= BLOCKS; block++) {
    const events: ServiceEvent[] = [];
    const txHash = keccak256(toHex(`tx ${block}`));
    if (block % LAUNCH_EVERY === 0) {
      const token = address(`launch ${block}`);
      if (block % (2 * LAUNCH_EVERY) === 0) {
        events.push({ kind: 'firstBuy', block, logIndex: 0, txHash, token, spent: 10n, tokens: 1000n, siteFee: 1n });
      }
      events.push({
        kind: 'launched',
        block,
        logIndex: 1,
        txHash,
        token,
        creator: address('creator'),
        pool: address(`pool ${block}`),
        pair: address('wbnb'),
        fee: 10000,
        supply: 10n ** 27n,
        openingTick: -207200,
        salt: txHash,
        name: `Token ${block}`,
        symbol: `T${block}`,
        metadataURI: 'ipfs://bafkreimetadata',
        royaltyTo: address('creator'),
        burnBps: 0,
        ranges: [{ tickLower: -207200, tickUpper: 887200, bps: 10000 }],
      });
    }
    for (let i = 0; i < TRADES_PER_BLOCK; i++) {
      events.push({
        kind: 'trade',
        block,
        logIndex: 2 + i,
        txHash,
        trader: address(`trader ${i}`),
        token: tokens[i % tokens.length] as Address,
        referrer: address('referrer'),
        pair: address('wbnb'),
        isBuy: i % 2 === 0,
        pairAmount: 10n ** 17n + BigInt(i),
        tokenAmount: 10n ** 24n + BigInt(block),
        fee: 10n ** 15n,
        cut: 0n,
      });
    }
    const hash = keccak256(toHex(`block ${block}`));
    store.write({
      events,
      timestamps: new Map([[block, 1_700_000_000 + block]]),
      hashes: new Map([[block, hash]]),
      to: block,
    });
    head = { block, hash, timestamp: 1_700_000_000 + block };
  }
});
afterAll(() => {
  db?.close();
  rmSync(dir, { recursive: true, force: true });
});

const launchCount = BLOCKS / LAUNCH_EVERY;
const firstBuyCount = BLOCKS / (2 * LAUNCH_EVERY);
const total = BLOCKS * TRADES_PER_BLOCK + launchCount + firstBuyCount;

/** The route alone on a real port, over the stream. */
async function serveStream(options: EventStreamOptions) {
  const stream = new EventStream(store, () => head, options);
  const api = new OpenAPIHono();
  eventsRoute(api as never, stream);
  api.onError(errorHandler(silentLogger()) as never);
  const server = serve({ fetch: api.fetch, hostname: '127.0.0.1', port: 0 });
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    stream,
    port,
    url: `http://127.0.0.1:${port}/events`,
    close: () => {
      stream.close();
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
    },
  };
}

describe('the event stream over a large index', () => {
  it('gives a reader that keeps up every event from the start, in chain order, once, across many pages', async () => {
    const served = await serveStream({ pageSize: 97 });
    try {
      const connection = await openSse(`${served.url}?after=0`);
      await vi.waitFor(() => expect(connection.events.at(-1)?.id).toBe(String(BLOCKS)), {
        timeout: 60_000,
        interval: 50,
      });
      const events = connection.events.filter((event) => event.event !== 'block');
      expect(events).toHaveLength(total);
      for (const event of events)
        wholeBytes += `event: ${event.event}\nid: ${event.id}\ndata: ${event.data}\n\n`.length;
      const ids = events.map((event) => event.id as string);
      expect(new Set(ids).size).toBe(total);
      const firstBuys = events.filter((event) => event.id?.endsWith('-1-1'));
      expect(firstBuys).toHaveLength(firstBuyCount);
      for (const buy of firstBuys) expect(JSON.parse(buy.data)).toMatchObject({ firstBuy: true, side: 'buy' });
      // Chain order: block, then log index, a launch's first buy right after its launch.
      const key = (id: string) => id.split('-').map(Number) as [number, number, number?];
      for (const [i, id] of ids.entries()) {
        if (i === 0) continue;
        const [b0, l0, p0 = 0] = key(ids[i - 1] as string);
        const [b1, l1, p1 = 0] = key(id);
        expect(b1 > b0 || (b1 === b0 && (l1 > l0 || (l1 === l0 && p1 > p0))), `${ids[i - 1]} then ${id}`).toBe(true);
      }
      // A resume from the middle of a block and from between a launch and its first buy picks up exactly there.
      for (const from of ['500-20', '500-1']) {
        const again = await openSse(`${served.url}?after=${from}`);
        await vi.waitFor(() => expect(again.events.at(-1)?.id).toBe(String(BLOCKS)), { timeout: 60_000 });
        const rest = again.events.filter((event) => event.event !== 'block').map((event) => event.id);
        expect(rest).toEqual(ids.slice(ids.indexOf(from) + 1));
        again.close();
      }
      connection.close();
    } finally {
      await served.close();
    }
  });

  it('drops a reader that stops reading, having held at most a page for it, and sends keep-alives to idle ones', async () => {
    const served = await serveStream({ slowClientMs: 500, keepAliveMs: 100, pageSize: 256 });
    try {
      const idle = await openSse(`${served.url}?types=launch&token=${tokens[0]}`);
      // A raw client asks for everything from the start and never reads: the socket buffers fill, then it is dropped.
      const socket = connect(served.port, '127.0.0.1');
      socket.pause();
      const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      socket.write(`GET /events?after=0 HTTP/1.1\r\nhost: 127.0.0.1:${served.port}\r\n\r\n`);
      await vi.waitFor(() => expect(served.stream.size).toBe(2), { timeout: 5_000 });
      await vi.waitFor(() => expect(served.stream.size).toBe(1), { timeout: 20_000, interval: 50 });
      // What it had been sent and not read: the kernel's socket buffers and one page, far from the whole index.
      let received = 0;
      socket.on('data', (chunk: Buffer) => {
        received += chunk.length;
      });
      socket.resume();
      await closed;
      expect(wholeBytes).toBeGreaterThan(10_000_000);
      expect(received).toBeGreaterThan(0);
      expect(received).toBeLessThan(wholeBytes / 2);
      // The idle reader, which asked for nothing that came, was kept and got keep-alive comments.
      await vi.waitFor(() => expect(idle.comments.filter((line) => line === 'keep-alive').length).toBeGreaterThan(2));
      expect(idle.events).toEqual([]);
      idle.close();
    } finally {
      await served.close();
    }
  });
});
