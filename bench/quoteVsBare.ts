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
const DURATION_MS = 5_000;
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

/** Warm-up, then the measured closed loop; the throughput and latency rows under `label`. */
async function measure(
  label: string,
  url: string,
  urlOf?: (n: number) => string,
): Promise<{ rows: Row[]; rps: number }> {
  const load = { url, connections: CONNECTIONS, maxRequests: MAX_REQUESTS, ...(urlOf ? { urlOf } : {}) };
  await closedLoopLoad({ ...load, durationMs: WARMUP_MS });
  const r: LoadResult = await closedLoopLoad({ ...load, durationMs: DURATION_MS });
  if (r.requests === 0) throw new Error(`${label}: no request completed${r.firstFailure ? `: ${r.firstFailure}` : ''}`);
  const rps = (r.requests / r.elapsedMs) * 1000;
  const zero = { op: '=', value: 0 } as const;
  return {
    rps,
    rows: [
      { name: `${label} throughput`, value: Math.round(rps), unit: 'req/s' },
      { name: `${label} latency p50`, value: percentile(r.latenciesMs, 50), unit: 'ms' },
      { name: `${label} non-200 answers`, value: r.non200, unit: 'count', target: zero },
      { name: `${label} transport errors`, value: r.errors, unit: 'count', target: zero },
    ],
  };
}

/**
 * GET /quote and GET /settings of the headless server (its own process, devnet, rate limits off) beside a bare
 * node:http server answering the same bytes, measured one after the other by the same load generator in this process:
 * the ratio is how much of the machine's loopback HTTP the service reaches. /quote is measured twice: one amount
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
        const rows: Row[] = [];
        const ratioRows = async (what: string, body: string, ours: number) => {
          const bare = await startBare(body);
          try {
            const measured = await measure(`bare node:http, ${what}'s bytes (${CONNECTIONS} conn)`, bare.url);
            rows.push(...measured.rows);
            return (ours / measured.rps) * 100;
          } finally {
            await bare.stop();
          }
        };
        // Distinct amounts: 0.1 BNB plus n wei, so no two requests ask the same quote.
        const distinct = await measure(`GET /quote, distinct amounts (${CONNECTIONS} conn)`, quoteUrl, (n) =>
          quoteUrl.replace(
            'amount=0.1',
            `amount=0.1${String(n + 1)
              .padStart(18, '0')
              .slice(-17)}`,
          ),
        );
        const repeated = await measure(`GET /quote, one amount (${CONNECTIONS} conn)`, quoteUrl);
        const settings = await measure(`GET /settings (${CONNECTIONS} conn)`, `${api}/settings`);
        rows.push(...distinct.rows, ...repeated.rows, ...settings.rows);
        const quoteRatio = await ratioRows('/quote', quoteBody, distinct.rps);
        const repeatedRatio = (repeated.rps / distinct.rps) * quoteRatio;
        const settingsRatio = await ratioRows('/settings', settingsBody, settings.rps);
        rows.push(
          {
            name: 'GET /quote, distinct amounts, share of bare node:http',
            value: quoteRatio,
            unit: '%',
            target: RATIO_TARGET,
          },
          { name: 'GET /quote, one amount, share of bare node:http', value: repeatedRatio, unit: '%' },
          { name: 'GET /settings, share of bare node:http', value: settingsRatio, unit: '%' },
        );
        return rows;
      } finally {
        await server.stop();
      }
    }),
};
