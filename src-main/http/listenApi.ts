import { createServer, type Server } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { type AnswerCheck, checkedListener } from './answerCheck';
import { answerClientErrors } from './clientErrors';
import { type LeanRoute, withLeanRoutes } from './leanRoutes';

/** The loopback address the API is served on, and nowhere else. */
const HOST = '127.0.0.1';

/**
 * Serves the app's `fetch` on 127.0.0.1:`port` (0 for any free port) as @hono/node-server's `serve` would, with the
 * lean routes offered each request first; resolves once the server listens. `checkAnswers`, when given, sees every
 * answer, the lean routes' included (tests hold them to the OpenAPI document with it).
 */
export function listenApi(
  fetch: Parameters<typeof getRequestListener>[0],
  port: number,
  lean: readonly LeanRoute[] = [],
  { checkAnswers }: { checkAnswers?: AnswerCheck | undefined } = {},
): Promise<Server> {
  return new Promise((resolve, reject) => {
    const listener = withLeanRoutes(getRequestListener(fetch, { hostname: HOST }), lean);
    const server = createServer(checkAnswers ? checkedListener(listener, checkAnswers) : listener);
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
