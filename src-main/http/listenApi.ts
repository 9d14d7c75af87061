import { createServer, type Server } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { answerClientErrors } from './clientErrors';
import { type LeanRoute, withLeanRoutes } from './leanRoutes';

/** The loopback address the API is served on, and nowhere else. */
const HOST = '127.0.0.1';

/**
 * Serves the app's `fetch` on 127.0.0.1:`port` (0 for any free port) as @hono/node-server's `serve` would, with the
 * lean routes offered each request first; resolves once the server listens.
 */
export function listenApi(
  fetch: Parameters<typeof getRequestListener>[0],
  port: number,
  lean: readonly LeanRoute[] = [],
): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer(withLeanRoutes(getRequestListener(fetch, { hostname: HOST }), lean));
    answerClientErrors(server);
    server.once('listening', () => resolve(server));
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`port ${port} on ${HOST} is in use; choose another with --port`)
          : error,
      );
    });
    server.listen(port, HOST);
  });
}
