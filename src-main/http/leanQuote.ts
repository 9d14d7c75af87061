import type { ServerResponse } from 'node:http';
import { QuoteQuerySchema } from '../../src-shared/schema/quote';
import type { Logger } from '../log/createLogger';
import type { QuoteService } from '../services/quoteService';
import type { TokenRegistry } from '../services/tokenRegistry';
import { errorAnswer } from './errorHandler';
import type { LeanRoute } from './leanRoutes';
import { isLoopbackHost } from './middleware/hostCheck';
import { answerQuote } from './routes/quoteRoute';
import { readWith } from './validationHook';

type QuoteQuery = Parameters<typeof answerQuote>[0];

/** The query's fields, as the route's schema names them; any other key leaves the request to the app. */
const FIELDS = new Set(Object.keys(QuoteQuerySchema.shape));
/**
 * With every required field present, the schema (strings, some optional) passes any query read here, whose values are
 * all single strings; without one, the schema itself is run for the app's error.
 */
const REQUIRED = Object.entries(QuoteQuerySchema.shape)
  .filter(([, schema]) => !schema.safeParse(undefined).success)
  .map(([field]) => field);
/**
 * Values that every URL parser reads as written: no percent-escapes or `+` to decode, nothing a URL would escape. An
 * address, a side, a decimal amount and a number of bps all fit; anything else is left to the app.
 */
const PLAIN_VALUE = /^[A-Za-z0-9._~-]*$/;
/** A loopback Host as a URL keeps it (lower case, a port in range); the app is the one to refuse or rewrite others. */
const PLAIN_HOST = /^(?:127\.0\.0\.1|localhost|\[::1\])(?::(\d{1,5}))?$/;
/**
 * Headers that make a middleware of the app act (a key to check, a cookie that needs x-mm-csrf, a body to read, an
 * origin): a request carrying one is left to the app, so each of those rules has its one implementation there.
 */
const APP_HEADERS = new Set(['cookie', 'x-api-key', 'origin', 'content-length', 'transfer-encoding']);

/**
 * GET /quote answered on Node's own request and response, before the Hono app, for a plain request: a query of the
 * route's fields alone, each once with a plain value, a loopback Host, and no header that a middleware acts on. The
 * answer is the route's own (`answerQuote`, the same JSON), and a failure is answered by the app's `errorAnswer`; what
 * is skipped is the app's cost per request (the fetch Request and Response, the router, the middleware chain, the
 * validator), about half the CPU of a quote. Only for a server without rate limits: the limiter counts in the app.
 */
export function leanQuote(path: string, tokens: TokenRegistry, quotes: QuoteService, log: Logger): LeanRoute {
  const prefix = `${path}?`;
  const answer = async (query: Record<string, string>): Promise<string> => {
    const checked = REQUIRED.every((field) => field in query)
      ? (query as QuoteQuery)
      : readWith(QuoteQuerySchema, query);
    return JSON.stringify(await answerQuote(checked, tokens, quotes));
  };
  return (req, res) => {
    if (req.method !== 'GET' || req.url === undefined || !req.url.startsWith(prefix)) return false;
    const query = plainQuery(req.url.slice(prefix.length));
    if (query === undefined || !plainHeaders(req.rawHeaders)) return false;
    answer(query)
      .then(
        (body) => send(res, 200, {}, body),
        (error: unknown) => {
          const failure = errorAnswer(error, 'GET', path, log);
          send(res, failure.status, failure.headers, JSON.stringify(failure.body));
        },
      )
      .catch((error: Error) => res.destroy(error));
    return true;
  };
}

/** The query's fields by name, or undefined when it has anything the app should read (see PLAIN_VALUE). */
function plainQuery(search: string): Record<string, string> | undefined {
  const query: Record<string, string> = {};
  for (const pair of search.split('&')) {
    const equals = pair.indexOf('=');
    if (equals < 0) return undefined;
    const field = pair.slice(0, equals);
    const value = pair.slice(equals + 1);
    if (!FIELDS.has(field) || field in query || !PLAIN_VALUE.test(value)) return undefined;
    query[field] = value;
  }
  return query;
}

/** One plain loopback Host and none of APP_HEADERS. */
function plainHeaders(raw: readonly string[]): boolean {
  let hosts = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    if (name === 'host') {
      const host = raw[i + 1] as string;
      const plain = PLAIN_HOST.exec(host);
      if (!plain || !isLoopbackHost(host) || Number(plain[1] ?? 0) > 65_535) return false;
      hosts++;
    } else if (APP_HEADERS.has(name)) {
      return false;
    }
  }
  return hosts === 1;
}

/** Writes a JSON answer with the headers the app's `c.json` sends. */
function send(res: ServerResponse, status: number, headers: Record<string, string>, body: string): void {
  res.writeHead(status, { ...headers, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}
