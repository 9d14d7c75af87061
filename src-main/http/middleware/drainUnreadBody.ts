import type { MiddlewareHandler } from 'hono';

/** The most of a refused body that is read and thrown away, so that its sender can read the refusal. */
export const DRAIN_LIMIT_BYTES = 32 * 1024 * 1024;
/** A sender that sends nothing for this long while its body is being drained is not waited for. */
const DRAIN_IDLE_MS = 10_000;

type BodyReader = ReadableStreamDefaultReader<Uint8Array>;

/**
 * Reads and discards what a handler left unread of the request body (a body over the limit, a write refused before
 * its body was looked at) before the answer goes, up to `maxBytes`. Clients such as Node's fetch write the whole body
 * before reading the answer: closing the connection under them loses the answer to EPIPE or a reset. A body that
 * goes on past the bound, or stalls, is given up and the connection closed.
 */
export function drainUnreadBody({
  maxBytes = DRAIN_LIMIT_BYTES,
  idleMs = DRAIN_IDLE_MS,
}: {
  maxBytes?: number;
  idleMs?: number;
} = {}): MiddlewareHandler {
  return async (c, next) => {
    // Only a request that says it has a body is looked at: touching `body` turns the server's light request into a
    // full one, which costs a GET half its throughput.
    const length = c.req.header('content-length');
    if ((length === undefined || length === '0') && c.req.header('transfer-encoding') === undefined) return next();
    const source = c.req.raw.body;
    if (source === null || source.locked) return next();
    // The handlers read the body through this stream, so what they leave is known and can be read here after them.
    const reader = source.getReader();
    let ended = false;
    const passOn = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            ended = true;
            controller.close();
          } else {
            controller.enqueue(value);
          }
        } catch (error) {
          controller.error(error);
        }
      },
    });
    c.req.raw = new Request(c.req.raw, { body: passOn, duplex: 'half' } as RequestInit);
    await next();
    if (ended) return;
    if (!(await discard(reader, maxBytes, idleMs))) c.header('Connection', 'close');
  };
}

/** Reads the rest of a body to its end (true), or gives up past `maxBytes`, after `idleMs` of silence or on an error. */
async function discard(reader: BodyReader, maxBytes: number, idleMs: number): Promise<boolean> {
  let total = 0;
  try {
    for (;;) {
      let timer: NodeJS.Timeout | undefined;
      const silence = new Promise<'idle'>((resolve) => {
        timer = setTimeout(() => resolve('idle'), idleMs);
      });
      const chunk = await Promise.race([reader.read(), silence]).finally(() => clearTimeout(timer));
      if (chunk === 'idle') break;
      if (chunk.done) return true;
      total += chunk.value.byteLength;
      if (total > maxBytes) break;
    }
  } catch {
    // The sender went away: nothing is left to drain.
  }
  reader.cancel().catch(() => undefined);
  return false;
}
