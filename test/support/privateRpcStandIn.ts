import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Hex, keccak256 } from 'viem';

/** How the stand-in answers: as a builder that takes transactions, one that says no, or one that is down. */
export type StandInMode = 'forward' | { refuse: string } | 'down';

export interface PrivateRpcStandIn {
  /** Its address, for `privateRpcUrl` (http://127.0.0.1:PORT/). */
  readonly url: string;
  /** Every signed transaction it was sent with eth_sendRawTransaction, in order, whatever it answered. */
  readonly received: Hex[];
  /** The hashes of `received`. */
  hashes(): Hex[];
  /** Where it forwards what it takes: the devnet's /rpc (known once the service listens). */
  forwardTo(devnetRpc: string): void;
  /** Changes how it answers from the next request on. */
  setMode(mode: StandInMode): void;
  close(): Promise<void>;
}

function reply(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A block builder's private RPC for tests, on 127.0.0.1: it takes `eth_sendRawTransaction` (one request, not a
 * batch, as the app sends it), counts it, and hands it to the devnet's private lane (`devnet_sendPrivateRawTransaction`
 * on /rpc), so it lands in the next block without ever entering the mempool. Any other method is refused, as builders'
 * endpoints refuse reads. `setMode` makes it refuse every send with a message, or drop every connection (down).
 */
export async function startPrivateRpcStandIn(): Promise<PrivateRpcStandIn> {
  const received: Hex[] = [];
  let target: string | undefined;
  let mode: StandInMode = 'forward';
  const server = createServer((request, response) => {
    if (mode === 'down') {
      // Down: the connection goes without an answer, as a crashed or firewalled endpoint leaves it.
      request.socket.destroy();
      return;
    }
    void (async () => {
      let call: { id?: unknown; method?: unknown; params?: unknown };
      try {
        call = JSON.parse(await bodyOf(request)) as typeof call;
      } catch {
        return reply(response, 200, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
      }
      const id = call.id ?? null;
      const raw = Array.isArray(call.params) ? call.params[0] : undefined;
      if (call.method !== 'eth_sendRawTransaction' || typeof raw !== 'string') {
        return reply(response, 200, {
          jsonrpc: '2.0',
          id,
          error: {
            code: -32601,
            message: `this private RPC takes eth_sendRawTransaction only, not ${String(call.method)}`,
          },
        });
      }
      received.push(raw as Hex);
      if (typeof mode === 'object') {
        return reply(response, 200, { jsonrpc: '2.0', id, error: { code: -32000, message: mode.refuse } });
      }
      if (!target) {
        return reply(response, 200, {
          jsonrpc: '2.0',
          id,
          error: { code: -32603, message: 'no devnet to forward to' },
        });
      }
      const forwarded = await fetch(target, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id, method: 'devnet_sendPrivateRawTransaction', params: [raw] }),
      });
      reply(response, 200, await forwarded.json());
    })().catch((error: unknown) => {
      reply(response, 200, { jsonrpc: '2.0', id: null, error: { code: -32603, message: String(error) } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/`,
    received,
    hashes: () => received.map((raw) => keccak256(raw)),
    forwardTo(devnetRpc) {
      target = devnetRpc;
    },
    setMode(next) {
      mode = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
