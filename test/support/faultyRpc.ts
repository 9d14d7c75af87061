import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the proxy treats the next requests. */
export type RpcFault = 'ok' | 'down' | 'garbage' | 'flap' | 'slow';

/** How long a `slow` answer is held back: longer than the test services' RPC timeout. */
export const SLOW_MS = 3000;

/**
 * A JSON-RPC proxy in front of a real node (a devnet's /rpc) that can fail on command: `down` drops the connection,
 * `garbage` answers 200 with text that is not JSON-RPC, `flap` fails every other request, `slow` answers only after
 * SLOW_MS. Counts what it forwarded.
 */
export async function faultyRpc(target: string) {
  let fault: RpcFault = 'ok';
  let seen = 0;
  let forwarded = 0;
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    seen += 1;
    const failing = fault === 'down' || fault === 'garbage' || (fault === 'flap' && seen % 2 === 0);
    if (failing && fault !== 'garbage' && !(fault === 'flap' && seen % 4 === 0)) {
      request.socket.destroy();
      return;
    }
    if (failing) {
      response.writeHead(200, { 'content-type': 'application/json' }).end('<html>502 Bad Gateway</html>');
      return;
    }
    if (fault === 'slow') await new Promise((resolve) => setTimeout(resolve, SLOW_MS));
    forwarded += 1;
    const answer = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: Buffer.concat(chunks),
    }).catch(() => undefined);
    if (!answer) {
      request.socket.destroy();
      return;
    }
    response
      .writeHead(answer.status, { 'content-type': 'application/json' })
      .end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    set(next: RpcFault) {
      fault = next;
    },
    get forwarded() {
      return forwarded;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
