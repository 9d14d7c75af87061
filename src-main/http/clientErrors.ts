import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { ApiError } from '../core/errors';

/**
 * Answers what Node's HTTP parser refuses before the app sees it. A request head over Node's 16 KiB (a very long URL,
 * in practice a query a bot built wrongly) gets the API's Error object, BODY_TOO_LARGE with its status, instead of a
 * bare 431; anything that is not HTTP at all still gets a bare 400, as Node would answer it, since no client of the
 * API sent it.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    if (error.code === 'HPE_HEADER_OVERFLOW') {
      const refusal = new ApiError('BODY_TOO_LARGE', 'the request line and headers take more than 16 KiB', {
        fix: 'Send a shorter URL: every query value of the API fits in a few hundred bytes.',
      });
      const body = JSON.stringify(refusal.toBody());
      socket.end(
        `HTTP/1.1 ${refusal.status} Payload Too Large\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
      return;
    }
    socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  });
}
