import { mkdtempSync, rmSync } from 'node:fs';
import { request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectChain } from '../src-main/chain/connectChain';
import { ApiError } from '../src-main/core/errors';
import { createApp, DEFAULT_RATE_LIMITS, leanRoutes } from '../src-main/http/createApp';
import type { LeanRoute } from '../src-main/http/leanRoutes';
import { listenApi } from '../src-main/http/listenApi';
import { lineLogger } from '../src-main/log/createLogger';
import { seedDevnet } from '../src-main/services/devnetSeed';
import { SESSION_COOKIE } from '../src-main/services/sessions';
import { composeServices, type Services } from '../src-main/startService';
import { openDatabase } from '../src-main/store/openDatabase';
import { FUZZ_SEED, fuzzQuery } from './support/fuzzInputs';
import { openApiAnswers } from './support/openApiAnswers';

/**
 * GET /quote's lean route (src-main/http/leanQuote.ts) answers plain quotes on Node's request before the Hono app; it
 * must answer every request exactly as the app alone does. One set of services over a seeded devnet, served twice on
 * real ports: as the service runs (lean routes first) and by the app alone. Each generated request goes to both, and
 * the status, every header but Date, and the body's bytes must be equal.
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 400);
const FIELDS = ['token', 'side', 'amount', 'exact', 'slippageBps'];
/** Sent to both servers alike: the port in Host is not checked, and a refused Host is quoted in the message. */
const HOSTS = ['127.0.0.1:8787', 'localhost', '[::1]:1', 'LOCALHOST:8787', '127.0.0.1:99999', 'evil.example', ''];

const answers = openApiAnswers();
let dataDir: string;
let services: Services;
let close: () => Promise<void>;
const servers: Server[] = [];
let lean: number;
let appOnly: number;
let limited: number;
let limitedAppOnly: number;
let tokens: string[];
/** The statuses the lean route answered itself: it must have answered successes and failures both. */
const leanStatuses: number[] = [];
/** The same, of the server with the default limits on. */
const limitedLeanStatuses: number[] = [];

const portOf = (server: Server) => (server.address() as AddressInfo).port;
/** The rate limits' clock, held still: every minute of theirs has all its 60 seconds left, on every server alike. */
const clock = () => 1_800_000_000_000;

/** The lean routes, each noting in `statuses` the status of every answer it gave itself. */
const countedRoutes = (routes: LeanRoute[], statuses: number[]) =>
  routes.map(
    (route): LeanRoute =>
      (req, res) => {
        const took = route(req, res);
        if (took) res.once('finish', () => statuses.push(res.statusCode));
        return took;
      },
  );

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'lean-quote-'));
  const chain = await connectChain({ network: 'devnet', deploymentsDir: '/nonexistent' });
  const devnet = chain.devnet;
  if (!devnet) throw new Error('the devnet did not start');
  const logger = lineLogger(() => {});
  services = composeServices(chain, openDatabase(':memory:'), {
    dataDir,
    network: 'devnet',
    rateLimits: false,
    logger,
  });
  const app = createApp(services);
  const counted = countedRoutes(leanRoutes(services), leanStatuses);
  expect(counted).toHaveLength(1);
  const checked = { checkAnswers: answers.check };
  servers.push(await listenApi(app.fetch, 0, counted, checked), await listenApi(app.fetch, 0, [], checked));
  // With the spec's limits, as the service starts by default: every quote must reach the one quote limiter, whichever
  // path answers it.
  const withLimits = { ...services, rateLimits: DEFAULT_RATE_LIMITS, clock };
  const countedLimited = countedRoutes(leanRoutes(withLimits), limitedLeanStatuses);
  servers.push(await listenApi(createApp(withLimits).fetch, 0, countedLimited, checked));
  // The same limits served by the app alone, with a quote limiter of its own on the same clock: what it answers, the
  // rate-limit fields included, the lean route must answer too.
  const appOnlyLimits = { ...services, rateLimits: DEFAULT_RATE_LIMITS, clock };
  servers.push(await listenApi(createApp(appOnlyLimits).fetch, 0, [], checked));
  [lean, appOnly, limited, limitedAppOnly] = servers.map(portOf) as [number, number, number, number];
  // Every answer of the three servers, the lean route's above all, is held to the served OpenAPI document.
  await answers.load(`http://127.0.0.1:${appOnly}/api/v1/openapi.json`);
  close = async () => {
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    await services.indexer.stop();
    await chain.close();
  };
  // The devnet's own seed: launches with a first trade, their logos stored (and served) as the service does.
  services.media.setOrigin(`http://127.0.0.1:${lean}`);
  services.indexer.start();
  await seedDevnet({ ...chain, devnet }, services, logger);
  await services.indexer.waitFor(await chain.client.getBlockNumber());
  tokens = services.index.newestLaunches(10).map((launch) => launch.token);
  expect(tokens.length).toBeGreaterThan(1);
});

afterAll(async () => {
  answers.assertNone();
  await close?.();
  rmSync(dataDir, { recursive: true, force: true });
});

interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Sends the request as written (Host included, when given) and reads the whole answer. */
function send(port: number, sent: Sent): Promise<Answer> {
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: sent.method,
        path: sent.path,
        headers: sent.headers,
        setHost: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const { date: _date, ...headers } = res.headers;
          resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString('utf8') });
        });
        res.on('error', (error: NodeJS.ErrnoException) => resolve({ status: 0, headers: {}, body: `${error.code}` }));
      },
    );
    // Some answers are not HTTP a client can read (a body after a HEAD's refusal): the failure is the answer.
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ status: 0, headers: {}, body: `${error.code}` }));
    req.end();
  });
}

const amount = fc.oneof(
  // Valid decimals in whole units: mostly sizes a pool fills, some far beyond it.
  {
    weight: 6,
    arbitrary: fc
      .tuple(
        fc.oneof({ weight: 4, arbitrary: fc.bigInt({ min: 0n, max: 10n }) }, fc.bigInt({ min: 0n, max: 10n ** 30n })),
        fc.stringMatching(/^\d{0,18}$/),
      )
      .map(([whole, fraction]) => (fraction === '' ? String(whole) : `${whole}.${fraction}`)),
  },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '0.1',
      '0.000000000000000001',
      '0.0000000000000000001',
      '1.0000000000000000000',
      '0',
      '0.0',
      '-1',
      '1e5',
      '.5',
      '5.',
      '',
      '0x10',
      '9'.repeat(90),
      '1_000',
      '0.1.2',
    ),
  },
);
const plainFields = fc.record(
  {
    token: fc.oneof(
      { weight: 6, arbitrary: fc.constant(0).chain(() => fc.constantFrom(...tokens)) },
      { weight: 1, arbitrary: fc.constant(0).chain(() => fc.constantFrom(...tokens.map((t) => t.toLowerCase()))) },
      {
        weight: 2,
        arbitrary: fc.constantFrom(
          '0x00000000000000000000000000000000c0ffee01',
          '0x5FbDB2315678afecb367f032d93F642f64180aa3',
          '0x123',
          '',
          'bnb',
        ),
      },
    ),
    side: fc.oneof({ weight: 6, arbitrary: fc.constantFrom('buy', 'sell') }, fc.constantFrom('BUY', '', 'hold')),
    amount,
    exact: fc.oneof({ weight: 4, arbitrary: fc.constantFrom('in', 'out') }, fc.constantFrom('IN', '', 'both')),
    slippageBps: fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom('50', '1', '5000', '050') },
      fc.constantFrom('0', '5001', '1.5', '', 'abc', '-1'),
    ),
  },
  // Left out now and then by the twist 'missing'.
  { requiredKeys: ['token', 'side', 'amount'] },
);
/** A query of the route's fields, mostly plain, sometimes with one thing the lean route must leave to the app. */
const plainQuery = fc
  .tuple(
    plainFields,
    fc.oneof(
      { weight: 8, arbitrary: fc.constant('none') },
      fc.constantFrom('missing', 'duplicate', 'stray', 'encoded', 'plus', 'bare key', 'empty pair'),
    ),
  )
  .chain(([fields, twist]) =>
    fc.shuffledSubarray(Object.entries(fields), { minLength: Object.keys(fields).length }).map((pairs) => {
      const parts = pairs.map(([name, value]) => `${name}=${value}`);
      const first = pairs[0];
      if (twist === 'missing') parts.shift();
      if (twist === 'duplicate' && first) parts.push(`${first[0]}=${first[1]}`);
      if (twist === 'stray') parts.push('referrer=0x00000000000000000000000000000000c0ffee01');
      if (twist === 'encoded' && first)
        parts[0] = `${first[0]}=${encodeURIComponent(first[1]).replace(/\w/, (c) => `%${c.charCodeAt(0).toString(16)}`)}`;
      if (twist === 'plus' && first) parts[0] = `${first[0]}=+${first[1]}`;
      if (twist === 'bare key') parts.push('exact');
      if (twist === 'empty pair') parts.push('');
      return parts.join('&');
    }),
  );
/** Anything: other methods and paths, fuzzed queries, and each header that a middleware acts on. */
const anyRequest = fc
  .record({
    method: fc.oneof({ weight: 12, arbitrary: fc.constant('GET') }, fc.constantFrom('HEAD', 'POST', 'OPTIONS')),
    path: fc.oneof(
      { weight: 12, arbitrary: fc.constant('/api/v1/quote') },
      fc.constantFrom('/api/v1/quote/', '/api/v1/QUOTE', '/api/v1//quote', '/api/v1/./quote', '/api/v1/quote%20'),
    ),
    query: fc.oneof(
      { weight: 6, arbitrary: plainQuery },
      {
        weight: 3,
        arbitrary: fc
          .constant(0)
          .chain(() => fuzzQuery(FIELDS, tokens, { token: tokens[0], side: 'buy', amount: '0.1' })),
      },
      { weight: 1, arbitrary: fc.constantFrom('', '?') },
    ),
    host: fc.oneof({ weight: 8, arbitrary: fc.constant(undefined) }, fc.constantFrom(...HOSTS)),
    cookie: fc.oneof(
      { weight: 8, arbitrary: fc.constant(undefined) },
      fc.constantFrom(`${SESSION_COOKIE}=nope`, 'theme=dark'),
    ),
    csrf: fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, fc.constantFrom('1', '0')),
    apiKey: fc.oneof({ weight: 8, arbitrary: fc.constant(undefined) }, fc.constantFrom('nope', '', 'lpk_0000')),
    origin: fc.oneof({ weight: 8, arbitrary: fc.constant(undefined) }, fc.constantFrom('http://evil.example', 'null')),
    contentLength: fc.oneof({ weight: 10, arbitrary: fc.constant(undefined) }, fc.constant('0')),
  })
  .map(({ method, path, query, host, cookie, csrf, apiKey, origin, contentLength }): Sent => {
    const headers: Record<string, string> = {};
    // Always given: the client's default names the port, which differs between the two servers.
    headers.host = host ?? '127.0.0.1';
    if (cookie !== undefined) headers.cookie = cookie;
    if (csrf !== undefined) headers['x-mm-csrf'] = csrf;
    if (apiKey !== undefined) headers['x-api-key'] = apiKey;
    if (origin !== undefined) headers.origin = origin;
    if (contentLength !== undefined) headers['content-length'] = contentLength;
    return { method, path: query === '' || query.startsWith('?') ? `${path}${query}` : `${path}?${query}`, headers };
  });

/** GET /quote as bots send it, with a query that is mostly plain: the requests the lean route is for. */
const botRequest = fc
  .tuple(plainQuery, fc.constantFrom('127.0.0.1', 'localhost:8787', '[::1]:8787'))
  .map(([query, host]): Sent => ({ method: 'GET', path: `/api/v1/quote?${query}`, headers: { host } }));
const sentRequest = fc.oneof(botRequest, anyRequest);

/** A quote as a bot sends it. */
const plainQuote = (): Sent => ({
  method: 'GET',
  path: `/api/v1/quote?token=${tokens[0]}&side=buy&amount=0.1`,
  headers: { host: '127.0.0.1' },
});

it('answers every generated GET /quote exactly as the app alone does', async () => {
  await fc.assert(
    fc.asyncProperty(sentRequest, async (sent) => {
      const [ours, app] = await Promise.all([send(lean, sent), send(appOnly, sent)]);
      expect(ours, `${sent.method} ${sent.path} ${JSON.stringify(sent.headers)}`).toEqual(app);
    }),
    { numRuns: RUNS, seed: FUZZ_SEED },
  );
  // Not vacuous: the lean route answered a good share itself, quotes and refusals both.
  expect(leanStatuses.length).toBeGreaterThan(RUNS / 5);
  expect(leanStatuses).toContain(200);
  expect(leanStatuses).toContain(400);
  expect(leanStatuses).toContain(422);
});

it('answers a failure of the service itself (503 with Retry-After, INTERNAL) as the app does', async () => {
  const sent = plainQuote();
  const read = services.quotes.quote;
  const readNow = services.quotes.quoteNow;
  // The pool's state at hand cannot fail to be read: what fails is a read the quote waits for.
  services.quotes.quoteNow = () => undefined;
  const failures: [Error, number][] = [
    [
      new ApiError('CHAIN_UNREACHABLE', 'the pool could not be read', { cause: new Error('connect ECONNREFUSED') }),
      503,
    ],
    [new Error('the pool broke'), 500],
  ];
  try {
    for (const [failure, status] of failures) {
      services.quotes.quote = () => Promise.reject(failure);
      const before = leanStatuses.length;
      const [ours, app] = await Promise.all([send(lean, sent), send(appOnly, sent)]);
      expect(ours).toEqual(app);
      expect(ours.status).toBe(status);
      expect(leanStatuses.slice(before)).toEqual([status]);
    }
  } finally {
    services.quotes.quote = read;
    services.quotes.quoteNow = readNow;
  }
});

it('counts every quote in the one limiter when limits are on, whichever path answers it, with the same fields', async () => {
  const plain = plainQuote();
  // A percent-escape in the amount: the same quote, which the lean route leaves to the app.
  const escaped = { ...plain, path: plain.path.replace('amount=0.1', 'amount=0%2E1') };
  // An amount the schema refuses: answered by the lean route, and counted as the app counts it.
  const refusedAmount = { ...plain, path: plain.path.replace('amount=0.1', 'amount=-1') };
  const sequence = [plain, escaped, refusedAmount];
  const quoted = await send(appOnly, plain);
  expect(quoted.status).toBe(200);
  const allowance = DEFAULT_RATE_LIMITS.quotesPerMinute;
  const policy = `"quotes";q=${allowance};w=60`;
  for (let i = 0; i < allowance; i++) {
    const sent = sequence[i % sequence.length] as Sent;
    const [ours, app] = await Promise.all([send(limited, sent), send(limitedAppOnly, sent)]);
    expect(ours, `${i}: ${sent.path}`).toEqual(app);
    if (sent === refusedAmount) expect(ours.status).toBe(400);
    else expect(ours.body).toBe(quoted.body);
    expect(ours.headers['ratelimit-policy']).toBe(policy);
    expect(ours.headers.ratelimit).toBe(`"quotes";r=${allowance - 1 - i};t=60`);
  }
  // Two thirds came through the lean route, a third through the app, and the budget was one: all are refused now.
  expect(limitedLeanStatuses).toEqual(Array.from({ length: (allowance / 3) * 2 }, (_, i) => (i % 2 ? 400 : 200)));
  for (const sent of sequence) {
    const [refused, app] = await Promise.all([send(limited, sent), send(limitedAppOnly, sent)]);
    expect(refused).toEqual(app);
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body).error.code).toBe('RATE_LIMITED');
    expect(refused.headers['retry-after']).toBe('60');
    expect(refused.headers['ratelimit-policy']).toBe(policy);
    expect(refused.headers.ratelimit).toBe('"quotes";r=0;t=60');
  }
  expect(limitedLeanStatuses.at(-1)).toBe(429);
});
