import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { ApiError } from '../core/errors';

/**
 * Answers what Node's HTTP parser refuses before the app sees it. A request head over Node's 16 KiB (a very long URL,
 * in practice a query a bot built wrongly) gets the API's Error object, BODY_TOO_LARGE with its status, instead of a
 * bare 431. The rest is answered as Node would: a request that took too long to arrive gets a bare 408, and anything
 * that is not HTTP at all a bare 400, since no client of the API sent it.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    // Node's own test before it answers: nothing to say to a peer that is gone, or in the middle of an answer already
    // half written on this socket (its response in flight is kept in the socket's _httpMessage).
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (!socket.writable || inFlight?.headersSent || error.code === 'ECONNRESET') {
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
    const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? '408 Request Timeout' : '400 Bad Request';
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  });
}
