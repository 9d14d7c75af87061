import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createCompanion } from './createCompanion';

// The API key goes only to the service's own origin: real servers on two loopback ports (two origins), the first
// redirecting to the second.

interface Seen {
  method: string;
  url: string;
  key: string | undefined;
  body: string;
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function serve(answer: (req: IncomingMessage, res: ServerResponse, body: string) => void) {
  const seen: Seen[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const key = req.headers['x-api-key'];
    seen.push({ method: req.method ?? '', url: req.url ?? '', key: typeof key === 'string' ? key : undefined, body });
    answer(req, res, body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const json = (res: ServerResponse, value: unknown) =>
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value));
const KEY = 'lpc_live_secret';

describe('x-api-key and redirects', () => {
  it('a redirect to another origin is followed without the key', async () => {
    const other = await serve((_req, res) => json(res, { chainId: 31337, answeredBy: 'other' }));
    const service = await serve((_req, res) =>
      res.writeHead(302, { location: `${other.origin}/api/v1/settings` }).end(),
    );
    const companion = createCompanion({ baseUrl: `${service.origin}/api/v1`, apiKey: KEY });
    expect(await companion.settings()).toMatchObject({ answeredBy: 'other' });
    expect(service.seen.map((s) => s.key)).toEqual([KEY]);
    expect(other.seen).toHaveLength(1);
    expect(other.seen[0]?.key).toBeUndefined();
  });

  it('a redirect within the origin keeps the key', async () => {
    const service = await serve((req, res) => {
      if (req.url === '/api/v1/settings') res.writeHead(301, { location: '/api/v1/moved' }).end();
      else json(res, { chainId: 31337 });
    });
    const companion = createCompanion({ baseUrl: `${service.origin}/api/v1`, apiKey: KEY });
    await companion.settings();
    expect(service.seen.map((s) => [s.url, s.key])).toEqual([
      ['/api/v1/settings', KEY],
      ['/api/v1/moved', KEY],
    ]);
  });

  it('a POST redirected with 307 to another origin carries its body, never the key, and the key stays off after', async () => {
    const service = await serve((req, res) => {
      if (req.url === '/api/v1/build/buy') res.writeHead(307, { location: `${other.origin}/bounce` }).end();
      else json(res, { side: 'buy', back: true });
    });
    // The other origin sends it back to the service: the key, once dropped, is not put back.
    const other = await serve((_req, res) => res.writeHead(307, { location: `${service.origin}/api/v1/back` }).end());
    const companion = createCompanion({ baseUrl: `${service.origin}/api/v1`, apiKey: KEY, rateLimitRetry: false });
    const body = { wallet: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', token: '0x11', amount: '0.1' };
    expect(await companion.buildBuy(body)).toMatchObject({ back: true });
    expect(other.seen).toHaveLength(1);
    expect(other.seen[0]).toMatchObject({ method: 'POST', key: undefined });
    expect(JSON.parse(other.seen[0]?.body ?? '{}')).toEqual(body);
    expect(service.seen.map((s) => [s.url, s.key])).toEqual([
      ['/api/v1/build/buy', KEY],
      ['/api/v1/back', undefined],
    ]);
  });

  it('the event stream redirected to another origin does not carry the key', async () => {
    const other = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`event: block\nid: 5\ndata: {"block":5,"hash":"0x${'ab'.repeat(32)}","at":null}\n\n`);
    });
    const service = await serve((_req, res) => res.writeHead(302, { location: `${other.origin}/events` }).end());
    const companion = createCompanion({ baseUrl: `${service.origin}/api/v1`, apiKey: KEY });
    for await (const event of companion.events({ types: ['block'] })) {
      expect(event).toMatchObject({ event: 'block', id: '5' });
      break;
    }
    expect(service.seen[0]?.key).toBe(KEY);
    expect(other.seen[0]?.key).toBeUndefined();
  });
});
