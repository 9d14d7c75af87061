import type { IncomingMessage, OutgoingHttpHeaders, RequestListener, ServerResponse } from 'node:http';
import { mediaType } from './mediaType';

/** One answer of the server, as a check sees it once its head (and, for JSON, its whole body) is written. */
export interface Answer {
  method: string;
  /** The request's path, without its query. */
  path: string;
  status: number;
  /** The answer's Content-Type header, if it has one. */
  contentType: string | undefined;
  /** A JSON answer's body as written; undefined for any other type (an image, a page, an event stream). */
  body: Buffer | undefined;
  /** How many bytes of body were written; undefined for an event stream, checked as it starts. */
  length: number | undefined;
  /** The port of the server that answered. */
  port: number;
}

/** Looks at each answer as it is written (tests hold every answer to the OpenAPI document with one). */
export type AnswerCheck = (answer: Answer) => void;

/** JSON bodies larger than this are not kept for the check: no answer of the API comes near it. */
const MAX_CHECKED_BYTES = 8 * 1024 * 1024;

/**
 * Node's request listener that hands every answer of `listener` to `check`, changing nothing of it: once its last
 * byte is handed to `end` (before it is sent), or for an event stream once its head is written (as it starts). What
 * the server answers before a request reaches the listener (clientErrors.ts) is not seen.
 */
export function checkedListener(listener: RequestListener, check: AnswerCheck): RequestListener {
  return (req, res) => {
    watch(req, res, check);
    listener(req, res);
  };
}

type Chunk = string | Uint8Array;

function watch(req: IncomingMessage, res: ServerResponse, check: AnswerCheck): void {
  const method = req.method ?? 'GET';
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  const port = req.socket.localPort ?? 0;
  const chunks: Buffer[] = [];
  let length = 0;
  /** Set once the head is known: whether the body is JSON (kept for the check), or a stream (checked at once). */
  let kind: 'json' | 'stream' | 'other' | undefined;
  let contentType: string | undefined;
  let checked = false;
  const report = (body: Buffer | undefined, bytes: number | undefined) => {
    if (checked) return;
    checked = true;
    check({ method, path, status: res.statusCode, contentType, body, length: bytes, port });
  };

  const head = (headers?: unknown) => {
    if (kind !== undefined) return;
    contentType = contentTypeOf(headers) ?? headerText(res.getHeader('content-type'));
    const type = mediaType(contentType);
    kind = type === 'application/json' ? 'json' : type === 'text/event-stream' ? 'stream' : 'other';
    if (kind === 'stream') report(undefined, undefined);
  };
  const take = (chunk: Chunk | undefined, encoding?: BufferEncoding) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, encoding ?? 'utf8') : Buffer.from(chunk);
    length += bytes.length;
    if (kind === 'json' && length <= MAX_CHECKED_BYTES) chunks.push(bytes);
  };

  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    const result = (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
    // Node sets statusCode from the first argument; the headers, when given, are the last one.
    head(args.length > 1 ? args[args.length - 1] : undefined);
    return result;
  } as ServerResponse['writeHead'];

  const write = res.write;
  res.write = function (this: ServerResponse, chunk: Chunk, ...rest: unknown[]) {
    head();
    take(chunk, typeof rest[0] === 'string' ? (rest[0] as BufferEncoding) : undefined);
    return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
  } as ServerResponse['write'];

  const end = res.end;
  res.end = function (this: ServerResponse, ...args: unknown[]) {
    head();
    const [chunk, encoding] = args;
    take(chunk as Chunk | undefined, typeof encoding === 'string' ? (encoding as BufferEncoding) : undefined);
    report(kind === 'json' ? Buffer.concat(chunks) : undefined, length);
    return (end as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as ServerResponse['end'];
}

/** The Content-Type among headers as writeHead takes them: an object, or a flat or nested list of names and values. */
function contentTypeOf(headers: unknown): string | undefined {
  if (Array.isArray(headers)) {
    const pairs: unknown[][] = Array.isArray(headers[0])
      ? (headers as unknown[][])
      : headers.flatMap((name, i) => (i % 2 === 0 ? [[name, headers[i + 1]]] : []));
    const pair = pairs.find(([name]) => String(name).toLowerCase() === 'content-type');
    return pair ? headerText(pair[1]) : undefined;
  }
  if (headers && typeof headers === 'object') {
    const entry = Object.entries(headers as OutgoingHttpHeaders).find(
      ([name]) => name.toLowerCase() === 'content-type',
    );
    return entry ? headerText(entry[1]) : undefined;
  }
  return undefined;
}

function headerText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return Array.isArray(value) ? value.map(String).join(', ') : String(value);
}
