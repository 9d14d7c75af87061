import type { ServerResponse } from 'node:http';
import { type QuoteQuery, QuoteQuerySchema } from '../../src-shared/schema/quote';
import { ApiError } from '../core/errors';
import type { Logger } from '../log/createLogger';
import type { QuoteService } from '../services/quoteService';
import type { TokenRegistry } from '../services/tokenRegistry';
import { errorAnswer } from './errorHandler';
import type { LeanRoute } from './leanRoutes';
import { isLoopbackHost } from './middleware/hostCheck';
import { RATE_LIMIT, RATE_LIMIT_POLICY, type RateLimiter } from './middleware/rateLimit';
import { answerQuote } from './routes/quoteRoute';
import { tradeRequestFor } from './tradeInput';
import { tradeJsonText } from './tradeJsonText';
import { readWith } from './validationHook';

type Field = keyof QuoteQuery;
const SHAPE = QuoteQuerySchema.shape;
/** The query's fields, as the route's schema names them; any other key leaves the request to the app. */
const FIELDS = new Set<string>(Object.keys(SHAPE));
/**
 * Values that every URL parser reads as written: no percent-escapes or `+` to decode, nothing a URL would escape. An
 * address, a side, a decimal amount and a number of bps all fit; anything else is left to the app.
 */
const PLAIN_VALUE = /^[A-Za-z0-9._~-]*$/;
/** A loopback Host as a URL keeps it (lower case, a port in range); the app is the one to refuse or rewrite others. */
const PLAIN_HOST = /^(?:127\.0\.0\.1|localhost|\[::1\])(?::(\d{1,5}))?$/;
/**
 * Headers that make a middleware of the app act (a key to check, a cookie that needs x-mm-csrf, a body to read, an
 * origin or a browser's Sec-Fetch-Site for ownPagesOnly, the app page's token for its own budget): a request carrying
 * one is left to the app, so each of those rules has its one implementation there.
 */
const APP_HEADERS = new Set([
  'cookie',
  'x-api-key',
  'origin',
  'sec-fetch-site',
  'x-app-token',
  'content-length',
  'transfer-encoding',
]);
/** Values read per field and kept (a bot sends the same token, side and slippage again and again); then cleared. */
const MEMO_SIZE = 512;
/** A field its schema refused. */
const REFUSED = Symbol('refused');

/**
 * GET /quote answered on Node's own request and response, before the Hono app, for a plain request: a query of the
 * route's fields alone, each once with a plain value, a loopback Host, and no header that a middleware acts on. The
 * query is read by the route's one schema (QuoteQuerySchema), the answer is the route's own (`tradeJson`, the same
 * JSON), a failure is answered by the app's `errorAnswer`, and with limits on the quote is counted by the app's own
 * quote limiter, its answer carrying the same RateLimit-Policy and RateLimit fields as the app's. What is skipped is
 * the app's cost per request (the fetch Request and Response, the router, the middleware chain); and when the token,
 * its pool and the fees are already read, the quote is answered in the turn its request came in, as a bare node:http
 * server answers, with no promise in between.
 */
export function leanQuote(
  path: string,
  tokens: TokenRegistry,
  quotes: QuoteService,
  log: Logger,
  limiter?: RateLimiter,
): LeanRoute {
  const prefix = `${path}?`;
  const reader = queryReader();
  // The budget's fields: the policy is the limiter's one string; what is left is the limiter's answer to each quote.
  const policy = limiter?.policy;
  const fail = (res: ServerResponse, error: unknown, left: string | undefined) => {
    const failure = errorAnswer(error, 'GET', path, log);
    send(res, failure.status, JSON.stringify(failure.body), failure.headers, policy, left);
  };
  return (req, res) => {
    if (req.method !== 'GET' || req.url === undefined || !req.url.startsWith(prefix)) return false;
    const read = reader(req.url.slice(prefix.length));
    if (read === undefined || !plainHeaders(req.rawHeaders)) return false;
    let query: QuoteQuery;
    // Set once the quote is counted; a refusal by the limiter carries its own fields (errorAnswer sends them).
    let left: string | undefined;
    if (limiter) {
      const counted = limiter.count(req.socket.remoteAddress ?? 'unknown');
      if (counted instanceof ApiError) {
        fail(res, counted, undefined);
        return true;
      }
      left = counted;
    }
    try {
      query = read instanceof Refused ? readWith(QuoteQuerySchema, read.raw) : read;
      const token = tokens.peek(query.token);
      const quote = token && quotes.quoteNow(tradeRequestFor(query, token));
      if (quote) {
        send(res, 200, tradeJsonText(quote), undefined, policy, left);
        return true;
      }
    } catch (error) {
      fail(res, error, left);
      return true;
    }
    answerQuote(query, tokens, quotes)
      .then(
        (answer) => send(res, 200, JSON.stringify(answer), undefined, policy, left),
        (error: unknown) => fail(res, error, left),
      )
      .catch((error: Error) => res.destroy(error));
    return true;
  };
}

/** A plain query that QuoteQuerySchema refuses: read whole by the schema for the route's own error. */
class Refused {
  constructor(readonly raw: Record<string, string>) {}
}

/**
 * Reads a query string with QuoteQuerySchema as the route does: undefined when it is not plain (left to the app),
 * Refused when the schema refuses it, else the query as the schema reads it. Field by field with each field's own
 * schema, keeping what the token, side, exact and slippage fields read to (their checks, the token's checksum above
 * all, cost more than the rest of a quote): the object adds no rule of its own over its fields, so a query every
 * field of which passes reads the same. And since a bot asks for the same token, side and slippage again and again
 * with another amount, a query read before but for its amount is not split again: only the amount is read.
 */
function queryReader(): (search: string) => QuoteQuery | Refused | undefined {
  const memos = new Map<Field, Map<string | undefined, unknown>>(
    (['token', 'side', 'exact', 'slippageBps'] as const).map((field) => [field, new Map()]),
  );
  /** Queries read before, by their text with the amount's value cut out: their fields but the amount. */
  const shapes = new Map<string, Omit<QuoteQuery, 'amount'>>();
  const field = (name: Field, value: string | undefined): unknown => {
    const memo = memos.get(name);
    const known = memo?.get(value);
    if (known !== undefined) return known;
    const parsed = SHAPE[name].safeParse(value);
    if (!parsed.success) return REFUSED;
    if (memo) {
      if (memo.size >= MEMO_SIZE) memo.clear();
      memo.set(value, parsed.data);
    }
    return parsed.data;
  };
  const readWhole = (search: string, shape: string | undefined): QuoteQuery | Refused | undefined => {
    const raw = plainQuery(search);
    if (raw === undefined) return undefined;
    const query: Partial<Record<Field, unknown>> = {};
    for (const name of FIELDS as Set<Field>) {
      const read = field(name, raw[name]);
      if (read === REFUSED) return new Refused(raw);
      query[name] = read;
    }
    if (shape !== undefined) {
      if (shapes.size >= MEMO_SIZE) shapes.clear();
      const { amount: _amount, ...others } = query as QuoteQuery;
      shapes.set(shape, others);
    }
    return query as QuoteQuery;
  };
  /** The query read last but for its amount: the text before and after the amount's value, and its other fields. */
  let last: { before: string; after: string; others: Omit<QuoteQuery, 'amount'> } | undefined;
  const withAmount = (others: Omit<QuoteQuery, 'amount'>, value: string): QuoteQuery | Refused | undefined => {
    if (!PLAIN_VALUE.test(value)) return undefined;
    const amount = SHAPE.amount.safeParse(value);
    if (!amount.success) return undefined;
    return {
      token: others.token,
      side: others.side,
      amount: amount.data,
      exact: others.exact,
      slippageBps: others.slippageBps,
    };
  };
  return (search) => {
    // A bot asks the same query again and again with another amount: the same text around the amount's value is
    // compared, not cut out and looked up (which hashed a new string per request).
    if (last !== undefined) {
      const { before, after } = last;
      const end = search.length - after.length;
      if (end > before.length && search.startsWith(before) && search.endsWith(after)) {
        const read = withAmount(last.others, search.slice(before.length, end));
        if (read !== undefined) return read;
      }
    }
    const at = search.startsWith('amount=') ? 0 : search.indexOf('&amount=') + 1;
    if (at === 0 && !search.startsWith('amount=')) return readWhole(search, undefined);
    const start = at + 'amount='.length;
    let end = search.indexOf('&', start);
    if (end < 0) end = search.length;
    const before = search.slice(0, start);
    const after = search.slice(end);
    const shape = `${before}${after}`;
    let others = shapes.get(shape);
    if (others === undefined) {
      const read = readWhole(search, shape);
      others = shapes.get(shape);
      if (others !== undefined) last = { before, after, others };
      return read;
    }
    last = { before, after, others };
    const value = search.slice(start, end);
    // withAmount is undefined for a value that is not plain (left to the app) or that the schema refuses (read whole,
    // for the route's own error).
    return withAmount(others, value) ?? (PLAIN_VALUE.test(value) ? readWhole(search, undefined) : undefined);
  };
}

/** The query's fields by name, or undefined when it has anything the app should read (see PLAIN_VALUE). */
function plainQuery(search: string): Record<string, string> | undefined {
  const query: Record<string, string> = {};
  let start = 0;
  while (start <= search.length) {
    let end = search.indexOf('&', start);
    if (end < 0) end = search.length;
    const equals = search.indexOf('=', start);
    if (equals < 0 || equals > end) return undefined;
    const field = search.slice(start, equals);
    const value = search.slice(equals + 1, end);
    if (!FIELDS.has(field) || field in query || !PLAIN_VALUE.test(value)) return undefined;
    query[field] = value;
    start = end + 1;
  }
  return query;
}

/** The last Host value found plain: a client sends the same one with every request, so it is checked once. */
let plainHost: string | undefined;

function isPlainHost(host: string): boolean {
  if (host === plainHost) return true;
  const plain = PLAIN_HOST.exec(host);
  if (!plain || !isLoopbackHost(host) || Number(plain[1] ?? 0) > 65_535) return false;
  plainHost = host;
  return true;
}

/** One plain loopback Host and none of APP_HEADERS. */
function plainHeaders(raw: readonly string[]): boolean {
  let hosts = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    if (name === 'host') {
      if (!isPlainHost(raw[i + 1] as string)) return false;
      hosts++;
    } else if (APP_HEADERS.has(name)) {
      return false;
    }
  }
  return hosts === 1;
}

/**
 * Writes a JSON answer with the headers the app's `c.json` sends: `extra` (a refusal's Retry-After and fields), and
 * the budget's RateLimit-Policy and RateLimit once the quote was counted (`left`, the RateLimit field's value).
 */
function send(
  res: ServerResponse,
  status: number,
  body: string,
  extra: Record<string, string> | undefined,
  policy: string | undefined,
  left: string | undefined,
): void {
  const length = Buffer.byteLength(body);
  // Literals without a spread where there is nothing to spread: V8 adds each property after a spread through its
  // slow generic path (only a failure's answer has `extra`).
  if (extra !== undefined) {
    res.writeHead(status, {
      ...extra,
      ...(left === undefined ? {} : { [RATE_LIMIT_POLICY]: policy, [RATE_LIMIT]: left }),
      'Content-Type': 'application/json',
      'Content-Length': length,
    });
  } else if (left === undefined) {
    res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': length });
  } else {
    res.writeHead(status, {
      [RATE_LIMIT_POLICY]: policy,
      [RATE_LIMIT]: left,
      'Content-Type': 'application/json',
      'Content-Length': length,
    });
  }
  res.end(body);
}
