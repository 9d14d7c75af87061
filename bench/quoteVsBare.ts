import { spawn } from 'node:child_process';
import { once } from 'node:events';
import type { Benchmark, Row } from './benchmark';
import { closedLoopLoad, type LoadResult } from './closedLoopLoad';
import { type RunningServer, startServer } from './loadMix';
import { percentile } from './stats';
import { stopChild } from './stopChild';
import { withTempDir } from './tempDir';

const CONNECTIONS = 32;
const WARMUP_MS = 1_000;
/** Each target is measured in slices this long, taken in turn with the others' (see below). */
const SLICE_MS = 1_000;
/** Slices per target: 5 s of measurement each, as before the slicing. */
const SLICES = 5;
const MAX_REQUESTS = 2_000_000;
/** Issue 20's goal: GET /quote at 70% or more of a bare node:http server answering the same bytes. */
const RATIO_TARGET = { op: '>=', value: 70 } as const;

/**
 * A bare node:http server in a process of its own, answering every request with `body` as JSON: the most this machine
 * serves on loopback to the same load generator, so the service's figure can be read as a share of it.
 */
async function startBare(body: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const script = `
    const { createServer } = require('node:http');
    const body = Buffer.from(process.env.BARE_BODY);
    const server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
      res.end(body);
    });
    server.keepAliveTimeout = 60000;
    server.listen(0, '127.0.0.1', () => process.stdout.write('ready ' + server.address().port + '\\n'));
    process.on('SIGTERM', () => server.close(() => process.exit(0)));
  `;
  const child = spawn(process.execPath, ['-e', script], {
    env: { ...process.env, BARE_BODY: body },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = (once(child, 'exit') as Promise<unknown[]>).catch(() => []);
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /^ready (\d+)$/m.exec(out);
      if (match?.[1]) resolve(Number(match[1]));
    });
    exited.then(() => reject(new Error('the bare server exited before it was ready')));
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => stopChild(child, exited) };
}

interface Target {
  label: string;
  url: string;
  urlOf?: (n: number) => string;
}

/** The load of one target, as one closed loop of `durationMs`. */
function loadOf(target: Target, durationMs: number): Promise<LoadResult> {
  const { url, urlOf } = target;
  return closedLoopLoad({
    url,
    connections: CONNECTIONS,
    maxRequests: MAX_REQUESTS,
    durationMs,
    ...(urlOf ? { urlOf } : {}),
  });
}

/**
 * Warms each target up, then measures them in turn, one slice each, SLICES times over, adding up each target's
 * slices. The machine's other load drifts over seconds (the bench shares its cores): measured one after the other,
 * each for its whole time, the service and the bare server met different loads and their ratio moved by 15 points
 * from run to run; taken in turn, both meet the same drift.
 */
async function measureInTurn(targets: readonly Target[]): Promise<Map<Target, { rows: Row[]; rps: number }>> {
  for (const target of targets) await loadOf(target, WARMUP_MS);
  const totals = new Map<Target, LoadResult>(
    targets.map((target) => [target, { requests: 0, elapsedMs: 0, latenciesMs: [], non200: 0, errors: 0 }]),
  );
  for (let slice = 0; slice < SLICES; slice++) {
    for (const target of targets) {
      const r = await loadOf(target, SLICE_MS);
      const total = totals.get(target) as LoadResult;
      total.requests += r.requests;
      total.elapsedMs += r.elapsedMs;
      total.latenciesMs.push(...r.latenciesMs);
      total.non200 += r.non200;
      total.errors += r.errors;
      if (r.firstFailure) total.firstFailure ??= r.firstFailure;
    }
  }
  const zero = { op: '=', value: 0 } as const;
  const measured = new Map<Target, { rows: Row[]; rps: number }>();
  for (const [target, r] of totals) {
    const { label } = target;
    if (r.requests === 0)
      throw new Error(`${label}: no request completed${r.firstFailure ? `: ${r.firstFailure}` : ''}`);
    const rps = (r.requests / r.elapsedMs) * 1000;
    measured.set(target, {
      rps,
      rows: [
        { name: `${label} throughput`, value: Math.round(rps), unit: 'req/s' },
        { name: `${label} latency p50`, value: percentile(r.latenciesMs, 50), unit: 'ms' },
        { name: `${label} non-200 answers`, value: r.non200, unit: 'count', target: zero },
        { name: `${label} transport errors`, value: r.errors, unit: 'count', target: zero },
      ],
    });
  }
  return measured;
}

/**
 * GET /quote and GET /settings of the headless server (its own process, devnet, rate limits off) beside a bare
 * node:http server answering the same bytes, measured in turn by the same load generator in this process (see
 * measureInTurn): the ratio is how much of the machine's loopback HTTP the service reaches. /quote is measured twice: one amount
 * repeated, and a distinct amount on every request (nothing answered before can be reused).
 */
export const quoteVsBare: Benchmark = {
  id: 'quote-vs-bare',
  run: () =>
    withTempDir('bench-quote-bare', async (dataDir) => {
      const server: RunningServer = await startServer(dataDir, false);
      try {
        const api = server.url;
        const deadline = Date.now() + 60_000;
        let token: string | undefined;
        while (!token) {
          if (Date.now() > deadline) throw new Error('no seed launch to quote after 60 s');
          const answer = await fetch(`${api}/launches?limit=1`);
          token = answer.ok
            ? ((await answer.json()) as { launches: { token: string }[] }).launches[0]?.token
            : undefined;
          if (!token) await new Promise((resolve) => setTimeout(resolve, 250));
        }
        const quoteUrl = `${api}/quote?token=${token}&side=buy&amount=0.1`;
        const quoteBody = await (await fetch(quoteUrl)).text();
        const settingsBody = await (await fetch(`${api}/settings`)).text();
        const bareQuote = await startBare(quoteBody);
        const bareSettings = await startBare(settingsBody).catch(async (error: unknown) => {
          await bareQuote.stop();
          throw error;
        });
        try {
          // Distinct amounts: 0.1 BNB plus n wei, so no two requests ask the same quote.
          const distinct: Target = {
            label: `GET /quote, distinct amounts (${CONNECTIONS} conn)`,
            url: quoteUrl,
            urlOf: (n) =>
              quoteUrl.replace(
                'amount=0.1',
                `amount=0.1${String(n + 1)
                  .padStart(18, '0')
                  .slice(-17)}`,
              ),
          };
          const repeated: Target = { label: `GET /quote, one amount (${CONNECTIONS} conn)`, url: quoteUrl };
          const settings: Target = { label: `GET /settings (${CONNECTIONS} conn)`, url: `${api}/settings` };
          const bareOfQuote: Target = {
            label: `bare node:http, /quote's bytes (${CONNECTIONS} conn)`,
            url: bareQuote.url,
          };
          const bareOfSettings: Target = {
            label: `bare node:http, /settings's bytes (${CONNECTIONS} conn)`,
            url: bareSettings.url,
          };
          const measured = await measureInTurn([distinct, bareOfQuote, repeated, settings, bareOfSettings]);
          const of = (target: Target) => measured.get(target) as { rows: Row[]; rps: number };
          const rows: Row[] = [distinct, repeated, settings, bareOfQuote, bareOfSettings].flatMap((t) => of(t).rows);
          const share = (ours: Target, bare: Target) => (of(ours).rps / of(bare).rps) * 100;
          rows.push(
            {
              name: 'GET /quote, distinct amounts, share of bare node:http',
              value: share(distinct, bareOfQuote),
              unit: '%',
              target: RATIO_TARGET,
            },
            { name: 'GET /quote, one amount, share of bare node:http', value: share(repeated, bareOfQuote), unit: '%' },
            { name: 'GET /settings, share of bare node:http', value: share(settings, bareOfSettings), unit: '%' },
          );
          return rows;
        } finally {
          await bareQuote.stop();
          await bareSettings.stop();
        }
      } finally {
        await server.stop();
      }
    }),
};
