import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CompanionError } from '../companionError';
import { createCompanion } from '../createCompanion';
import { type CompanionEvent, isConfirmed } from './streamEvents';

/** A tiny SSE server: each connection is handed to `answer` with its number (0 first). */
async function serve(answer: (n: number, req: IncomingMessage, res: ServerResponse) => void) {
  const requests: IncomingMessage[] = [];
  const closed: number[] = [];
  const server: Server = createServer((req, res) => {
    const n = requests.length;
    requests.push(req);
    res.on('close', () => closed.push(n));
    answer(n, req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  servers.push(server);
  return { baseUrl: `http://127.0.0.1:${port}/api/v1`, requests, closed };
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const stream = (res: ServerResponse) =>
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });

const block = (n: number) => `event: block\nid: ${n}\ndata: {"block":${n},"hash":"0x${'ab'.repeat(32)}","at":null}\n\n`;
const trade = (id: string, symbolByte = '') =>
  `event: trade\nid: ${id}\ndata: {"token":"0x${'11'.repeat(20)}","side":"buy","note":"名${symbolByte}"}\n\n`;

describe('events()', () => {
  it('reconnects after a drop with Last-Event-ID set to the last event it yielded: no gap, no duplicate', async () => {
    const { baseUrl, requests, closed } = await serve((n, _req, res) => {
      stream(res);
      if (n === 0) {
        res.write('retry: 20\n: keep-alive\n\n');
        res.write(block(10));
        // A multi-byte character cut between two writes, then a CRLF cut between its CR and LF.
        const bytes = Buffer.from(trade('11-0').replaceAll('\n', '\r\n'));
        const cut = bytes.indexOf(Buffer.from('名')) + 1;
        res.write(bytes.subarray(0, cut));
        res.write(bytes.subarray(cut, bytes.length - 1));
        res.write(bytes.subarray(bytes.length - 1));
        res.write('event: launch\nid: 11-1\ndata: {"token":"0x22","symbol":"CAT"}\n\n');
        // Half an event, then the connection drops: that event must come again, whole, after the reconnection.
        res.write('event: trade\nid: 12-0\ndata: {"tok');
        setTimeout(() => res.socket?.destroy(), 20);
      } else {
        res.write(trade('12-0'));
        res.write(block(12));
      }
    });
    const companion = createCompanion({ baseUrl, apiKey: 'lpc_live_test' });
    const seen: CompanionEvent[] = [];
    for await (const event of companion.events({ types: ['launch', 'trade', 'block'], token: '0xabc' })) {
      seen.push(event);
      if (event.event === 'block' && event.data.block === 12) break;
    }
    expect(seen.map((e) => `${e.event} ${e.id}`)).toEqual([
      'block 10',
      'trade 11-0',
      'launch 11-1',
      'trade 12-0',
      'block 12',
    ]);
    const first = seen[1];
    if (first?.event !== 'trade') throw new Error('the second event is not the trade');
    expect(first.data.side).toBe('buy');
    expect((first.data as { note?: string }).note).toBe('名');
    expect(requests).toHaveLength(2);
    expect(requests[0]?.url).toBe('/api/v1/events?types=launch%2Ctrade%2Cblock&token=0xabc');
    expect(requests[0]?.headers['last-event-id']).toBeUndefined();
    expect(requests[0]?.headers.accept).toBe('text/event-stream');
    expect(requests[0]?.headers['x-api-key']).toBe('lpc_live_test');
    expect(requests[1]?.headers['last-event-id']).toBe('11-1');
    // Leaving the loop closed the connection.
    await expect.poll(() => closed).toContain(1);
  });

  it('sends `after` on the first connection, and reconnects after an end of stream too', async () => {
    const { baseUrl, requests } = await serve((n, _req, res) => {
      stream(res);
      res.end(n === 0 ? 'retry: 10\n\n' : trade('20-3'));
    });
    const events = createCompanion({ baseUrl }).events({ after: '20-2' });
    const { value } = await events.next();
    await events.return();
    expect(value).toMatchObject({ event: 'trade', id: '20-3' });
    expect(requests[0]?.url).toBe('/api/v1/events?after=20-2');
    expect(requests[1]?.headers['last-event-id']).toBeUndefined();
  });

  it('passes over kinds not asked for, which never become the resume id', async () => {
    const { baseUrl, requests } = await serve((n, _req, res) => {
      stream(res);
      res.end(n === 0 ? `retry: 10\n\n${trade('3-0')}${block(3)}` : `${block(4)}${trade('5-0')}`);
    });
    const events = createCompanion({ baseUrl }).events({ types: ['trade'] });
    const ids: string[] = [];
    for await (const event of events) {
      ids.push(`${event.event} ${event.id}`);
      if (ids.length === 2) break;
    }
    expect(ids).toEqual(['trade 3-0', 'trade 5-0']);
    expect(requests[1]?.headers['last-event-id']).toBe('3-0');
  });

  it('stops when the signal aborts, closing the connection', async () => {
    const { baseUrl, closed } = await serve((_n, _req, res) => {
      stream(res);
      res.write(block(5));
    });
    const controller = new AbortController();
    const seen: string[] = [];
    for await (const event of createCompanion({ baseUrl }).events({ signal: controller.signal })) {
      seen.push(event.id ?? '');
      setTimeout(() => controller.abort(), 20);
    }
    expect(seen).toEqual(['5']);
    await expect.poll(() => closed).toEqual([0]);
  });

  it("throws the API's error when retrying cannot help, and waits out a retryable one", async () => {
    const { baseUrl, requests } = await serve((n, req, res) => {
      if (req.url?.includes('after=bad')) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            error: { code: 'INVALID_CURSOR', message: 'after is not an event id', fix: 'Send an id.' },
          }),
        );
      } else if (n === 1) {
        res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' });
        res.end(JSON.stringify({ error: { code: 'CHAIN_UNREACHABLE', message: 'the chain could not be read' } }));
      } else {
        stream(res);
        res.end(block(7));
      }
    });
    const companion = createCompanion({ baseUrl });
    const refused = await companion
      .events({ after: 'bad' })
      .next()
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CompanionError);
    expect(refused).toMatchObject({ status: 400, code: 'INVALID_CURSOR', fix: 'Send an id.', retry: false });
    const events = companion.events({ maxRetryMs: 50 });
    expect((await events.next()).value).toMatchObject({ event: 'block', id: '7' });
    await events.return();
    expect(requests).toHaveLength(3);
  });

  it('is UNREACHABLE when the first connection cannot be made, and BAD_RESPONSE for an answer that is no stream', async () => {
    const { baseUrl } = await serve((_n, _req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
    const wrong = await createCompanion({ baseUrl })
      .events()
      .next()
      .catch((e: unknown) => e);
    expect(wrong).toMatchObject({ code: 'BAD_RESPONSE', status: 200, retry: false });
    const closedPort = baseUrl.replace(/:\d+\//, ':1/');
    const none = await createCompanion({ baseUrl: closedPort })
      .events()
      .next()
      .catch((e: unknown) => e);
    expect(none).toBeInstanceOf(CompanionError);
    expect(none).toMatchObject({ code: 'UNREACHABLE', status: null, retry: { afterMs: 1000 } });
  });

  it('takes head events: `confirmed: false` and no id of their own; retract events; kinds it does not know passed over', async () => {
    const token = `0x${'33'.repeat(20)}`;
    const launch = (confirmed?: boolean, id?: string) =>
      `event: launch\n${id ? `id: ${id}\n` : ''}data: ${JSON.stringify({ token, symbol: 'HEAD', ...(confirmed === undefined ? {} : { confirmed }) })}\n\n`;
    const { baseUrl, requests } = await serve((n, req, res) => {
      stream(res);
      if (n > 0) {
        res.write(block(22));
        return;
      }
      res.write(block(20));
      // A head event: its block is at the head, not confirmed; it carries no id, so the resume id stays at 20.
      res.write(launch(false));
      res.write(`event: retract\ndata: {"block":20,"reason":"reorganized"}\n\n`);
      // A kind this client does not know, and a field it does not know on a block.
      res.write(`event: confirm\nid: 21\ndata: {"block":21}\n\n`);
      res.write(launch(undefined, '21-0'));
      res.write(`event: block\nid: 21\ndata: {"block":21,"hash":"0x${'cd'.repeat(32)}","at":null,"head":23}\n\n`);
      setTimeout(() => req.socket.destroy(), 20);
    });
    const companion = createCompanion({ baseUrl });
    const seen: CompanionEvent[] = [];
    for await (const event of companion.events({ maxRetryMs: 50 })) {
      seen.push(event);
      if (seen.length === 6) break;
    }
    expect(seen.map((e) => `${e.event} ${e.id ?? '(none)'}`)).toEqual([
      'block 20',
      'launch (none)',
      'retract (none)',
      'launch 21-0',
      'block 21',
      'block 22',
    ]);
    expect(seen.map((e) => isConfirmed(e))).toEqual([true, false, true, true, true, true]);
    expect(seen[1]?.data).toMatchObject({ confirmed: false });
    expect(seen[2]?.data).toEqual({ block: 20, reason: 'reorganized' });
    // Resumed after the last confirmed event, never after a head event.
    expect(requests[1]?.headers['last-event-id']).toBe('21');
    const only = await serve((_n, _req, res) => {
      stream(res);
      res.write(block(9));
    });
    const first = await createCompanion({ baseUrl: only.baseUrl }).events({ confirmed: 'only' }).next();
    expect(first.value).toMatchObject({ event: 'block', id: '9' });
    expect(only.requests[0]?.url).toBe('/api/v1/events?confirmed=only');
    // Retract is the client's to filter: asked for, it is not sent as a type the service would refuse.
    const asked = await createCompanion({ baseUrl: only.baseUrl })
      .events({ types: ['launch', 'block', 'retract'] })
      .next();
    expect(asked.value).toMatchObject({ event: 'block', id: '9' });
    expect(only.requests[1]?.url).toBe('/api/v1/events?types=launch%2Cblock');
  });
});
