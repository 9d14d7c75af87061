import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Changes an answer of the real service on its way to the client: given the path and the parsed JSON body. */
export type Alter = (path: string, body: unknown) => unknown;

/** Requests to `path` answered 429 RATE_LIMITED with Retry-After by the stand-in itself, `times` more times. */
export interface Refusal {
  path: string;
  times: number;
  retryAfterSeconds: number;
}

export interface StandIn {
  /** The stand-in's API root, to give the client as its baseUrl. */
  url: string;
  /** What the next answers are changed by; null passes them on as they are. */
  alter: Alter | null;
  /** Requests refused as rate limited before any reaches the service. */
  refuse: Refusal | null;
  close(): Promise<void>;
}

/**
 * A stand-in service: a real HTTP server on a loopback port that forwards every request to the real service at
 * `target` (an origin) and hands its JSON answers back, changed by `alter` when one is set. It is what a client sees
 * when something between it and its service (or a service that is not its own) rewrites builds.
 */
export async function startStandIn(target: string): Promise<StandIn> {
  const standIn: StandIn = { url: '', alter: null, refuse: null, close: async () => {} };
  const server: Server = createServer(async (req, res) => {
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const refusal = standIn.refuse;
      if (refusal && refusal.times > 0 && (req.url ?? '').split('?')[0] === refusal.path) {
        refusal.times--;
        const error = {
          code: 'RATE_LIMITED',
          message: `more than allowed from ${req.socket.remoteAddress} in the last minute`,
          fix: `Wait ${refusal.retryAfterSeconds} seconds (Retry-After), then send again.`,
        };
        res
          .writeHead(429, { 'content-type': 'application/json', 'retry-after': String(refusal.retryAfterSeconds) })
          .end(JSON.stringify({ error }));
        return;
      }
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (name === 'host' || name === 'connection' || name === 'content-length' || value === undefined) continue;
        headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      }
      const answer = await fetch(`${target}${req.url}`, {
        method: req.method ?? 'GET',
        headers,
        ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
      });
      const type = answer.headers.get('content-type') ?? '';
      const text = await answer.text();
      const path = (req.url ?? '').split('?')[0] ?? '';
      const body =
        standIn.alter && type.startsWith('application/json')
          ? JSON.stringify(standIn.alter(path, JSON.parse(text)))
          : text;
      const out: Record<string, string> = { 'content-type': type };
      const retryAfter = answer.headers.get('retry-after');
      if (retryAfter !== null) out['retry-after'] = retryAfter;
      res.writeHead(answer.status, out).end(body);
    } catch (error) {
      res.writeHead(502, { 'content-type': 'text/plain' }).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  standIn.url = `http://127.0.0.1:${port}/api/v1`;
  standIn.close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return standIn;
}
