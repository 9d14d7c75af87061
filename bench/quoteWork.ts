import type { IncomingMessage, ServerResponse } from 'node:http';
import { getHeapSpaceStatistics } from 'node:v8';
import { connectChain } from '../src-main/chain/connectChain';
import { leanRoutes } from '../src-main/http/createApp';
import { tradeRequestFor } from '../src-main/http/tradeInput';
import { tradeJsonText } from '../src-main/http/tradeJsonText';
import { lineLogger } from '../src-main/log/createLogger';
import { seedDevnet } from '../src-main/services/devnetSeed';
import { composeServices } from '../src-main/startService';
import { openDatabase } from '../src-main/store/openDatabase';
import type { Benchmark, Row } from './benchmark';
import { withTempDir } from './tempDir';

/** Amounts taken in turn, as quote-vs-bare's distinct-amount target asks them: 0.1 plus n wei. */
const AMOUNTS = 64;
const TIMED = 100_000;
const ROUNDS = 5;
/** Quotes per allocation reading: few enough that the young generation does not fill (and collect) in between. */
const ALLOCATED = 200;

/** The young generation's bytes in use. */
function newSpaceUsed(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_used_size ?? 0;
}

/**
 * Ns per call in the least disturbed of ROUNDS rounds of TIMED calls (call n gets n): on a shared machine other work
 * only ever adds to a round.
 */
function nsPerCall(work: (n: number) => unknown): number {
  const rounds: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const started = process.hrtime.bigint();
    for (let n = 0; n < TIMED; n++) work(n);
    rounds.push(Number(process.hrtime.bigint() - started) / TIMED);
  }
  return Math.min(...rounds);
}

/**
 * Bytes allocated per call: the young generation's growth over ALLOCATED calls, read again when a collection came in
 * between (the reading then shrank). The smallest of several readings: a reading can only be inflated (by something
 * else allocating meanwhile), never deflated.
 */
function bytesPerCall(work: (n: number) => unknown): number {
  let least = Number.POSITIVE_INFINITY;
  for (let reading = 0, taken = 0; reading < 50 && taken < 5; reading++) {
    const before = newSpaceUsed();
    for (let n = 0; n < ALLOCATED; n++) work(n);
    const grown = newSpaceUsed() - before;
    if (grown <= 0) continue;
    least = Math.min(least, grown / ALLOCATED);
    taken++;
  }
  if (!Number.isFinite(least)) throw new Error('every allocation reading met a collection');
  return least;
}

/**
 * GET /quote's own work, in this process and without HTTP: the lean route as a request reaches it (the query read, the
 * trade asked, the quote, its answer's text), then each part alone, in ns and in bytes allocated per quote. This is
 * where quote-vs-bare's gap comes from; under load each ns and each byte here costs more (the kernel's work in between
 * leaves the caches cold, and a slower server makes the generator sleep and be woken), so the two are read together.
 * On the devnet's first seed launch, buying with distinct amounts.
 */
export const quoteWork: Benchmark = {
  id: 'quote-work',
  run: () =>
    withTempDir('bench-quote-work', async (dataDir) => {
      const chain = await connectChain({ network: 'devnet', deploymentsDir: '/nonexistent' });
      const devnet = chain.devnet;
      if (!devnet) throw new Error('the devnet did not start');
      const logger = lineLogger(() => {});
      const database = openDatabase(':memory:');
      const services = composeServices(chain, database, { dataDir, network: 'devnet', rateLimits: false, logger });
      try {
        services.media.setOrigin('http://127.0.0.1:1');
        services.indexer.start();
        await seedDevnet({ ...chain, devnet }, services, logger);
        await services.indexer.waitFor(await chain.client.getBlockNumber());
        const launch = services.index.newestLaunches(1)[0];
        if (!launch) throw new Error('the seed launched nothing');
        const [route] = leanRoutes(services);
        if (!route) throw new Error('the service has no lean route');
        const amounts = Array.from(
          { length: AMOUNTS },
          (_, n) =>
            `0.1${String(n + 1)
              .padStart(18, '0')
              .slice(-17)}`,
        );
        const urls = amounts.map((amount) => `/api/v1/quote?token=${launch.token}&side=buy&amount=${amount}`);
        let answered = 0;
        const res = {
          writeHead: () => res,
          end: () => {
            answered++;
          },
        } as unknown as ServerResponse;
        const req = {
          method: 'GET',
          url: urls[0],
          rawHeaders: ['Host', '127.0.0.1:8787', 'User-Agent', 'bench'],
          socket: { remoteAddress: '127.0.0.1' },
        } as IncomingMessage;
        const ask = (n: number) => {
          req.url = urls[n % AMOUNTS];
          return route(req, res);
        };
        // The first quotes read the pool, the fees and the dollar rate; from then on each is answered in its turn.
        for (let n = 0; n < AMOUNTS; n++) {
          ask(n);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        const token = services.tokens.peek(launch.token);
        if (!token) throw new Error('the token was not read');
        const terms = amounts.map((amount) => ({
          token: launch.token,
          side: 'buy' as const,
          amount,
          exact: 'in' as const,
          slippageBps: 50,
        }));
        const requests = terms.map((t) => tradeRequestFor(t, token));
        const quotes = requests.map((request) => {
          const quote = services.quotes.quoteNow(request);
          if (!quote) throw new Error('the quote could not be made in its turn');
          return quote;
        });
        const parts: [string, (n: number) => unknown][] = [
          ['the lean route, whole (query, trade, quote, text, answer)', ask],
          ['the trade asked (amount to wei)', (n) => tradeRequestFor(terms[n % AMOUNTS] as never, token)],
          ['the quote (swap, fees, limit, impact)', (n) => services.quotes.quoteNow(requests[n % AMOUNTS] as never)],
          ["the answer's text", (n) => tradeJsonText(quotes[n % AMOUNTS] as never)],
        ];
        const rows: Row[] = [];
        answered = 0;
        for (const [name, work] of parts) {
          rows.push({ name: `GET /quote in the process: ${name}, time`, value: nsPerCall(work), unit: 'ns' });
          rows.push({ name: `GET /quote in the process: ${name}, allocated`, value: bytesPerCall(work), unit: 'B' });
        }
        if (answered === 0) throw new Error('the lean route answered nothing');
        return rows;
      } finally {
        await services.indexer.stop();
        await chain.close();
        database.close();
      }
    }),
};
