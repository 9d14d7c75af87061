import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon, { type Options } from 'autocannon';
import { SERVE_BUNDLE } from '../scripts/buildServe';
import { testAccounts } from '../src-main/chain/devnet/testAccounts';
import { DEFAULT_RATE_LIMITS } from '../src-main/http/createApp';
import type { Benchmark, Row, Target } from './benchmark';
import { cpuMs, residentMiB } from './procStats';
import { stopChild } from './stopChild';
import { withTempDir } from './tempDir';

const ROOT = join(import.meta.dirname, '..');
const READY_TIMEOUT_MS = 60_000;
const SEED_TIMEOUT_MS = 60_000;
/** Seconds of the same mix before measuring, so JIT warm-up and first-use caches are not counted as growth. */
const WARMUP_S = 3;
const DURATION_S = 15;
/** Per endpoint; four endpoints at once make 8 connections in flight. */
const CONNECTIONS = 2;
const MIN_SEED_LAUNCHES = 4;
/** Wallet for the builds: a funded devnet test account (builds only simulate, so its balance never moves). */
const WALLET_INDEX = 9;
const RATE_LIMITED = 429;

/*
 * Where the targets come from. The spec's Limits section sets rate limits (120 quotes, 60 builds per minute per
 * client), and issue 9 asks for figures, not particular speeds: these targets were set for this mix when it was
 * written (2-core machine, four endpoints at once), looser than the single-endpoint
 * figures quote-vs-bare and tradingBench hold to (quote > 5000 req/s, build p50 < 15 ms), because here the four
 * endpoints share the server's one event loop and the machine's cores with the load generator.
 */
const TARGETS: Partial<Record<Endpoint['key'], { p99?: Target; throughput?: Target }>> = {
  // A quote answers within 50 ms even while builds are simulating (measured p99: 2-4 ms).
  quote: { p99: { op: '<', value: 50 } },
  // A build (quote, simulation on the devnet) answers within half a second under the mix (measured p99: about 40 ms).
  build: { p99: { op: '<', value: 500 } },
  // GET /settings keeps above 1000 req/s while the rest of the mix runs. Measured 1650-2835 on 2 cores: the four
  // endpoints share one event loop, so it moves with the others; 1000 still catches a halving.
  settings: { throughput: { op: '>', value: 1000 } },
};
/** A 15 s mix must not leave the server more than 100 MiB bigger (a leak, or an unbounded cache). */
const RSS_GROWTH_TARGET: Target = { op: '<', value: 100 };
/**
 * The live heap after a full collection is the leak check proper: RSS also counts garbage V8 has not collected yet.
 * Tens of thousands of requests must leave under 16 MiB more live (caches of pool state and quotes are bounded).
 */
const HEAP_GROWTH_TARGET: Target = { op: '<', value: 16 };
/** Loaded into the server child: a full GC and a heap reading on SIGUSR2. */
const HEAP_PROBE = join(import.meta.dirname, 'heapProbe.cjs');
const ZERO: Target = { op: '=', value: 0 };

interface Endpoint {
  key: 'quote' | 'build' | 'launches' | 'settings';
  label: string;
  options: (api: string) => Options;
  /** Requests a client may make a minute when limits are on (spec, Limits); absent for the unlimited endpoints. */
  allowance?: number;
}

/**
 * A realistic mix against the headless server in its own process (so the load generator does not share its event
 * loop), on the devnet with its seed launches: GET /quote, POST /build/buy, GET /launches?limit=50 and GET /settings,
 * one autocannon instance per endpoint, all at once. Run twice: with `--rate-limit off` every answer must be 2xx; with
 * limits on, exactly the first minute's allowance of quotes and builds must be answered and the rest must be 429
 * RATE_LIMITED, and nothing else may fail (the warm-up uses the allowance up, so the measured quote and build latency
 * there is that of the rejection). Before and after each measured run the server's live heap is read after a full
 * collection (the leak check) and its resident memory from /proc.
 */
export const loadMix: Benchmark = {
  id: 'load-mix',
  async run() {
    const rows: Row[] = [];
    rows.push(...(await withTempDir('bench-load-off', (dir) => phase(dir, false))));
    rows.push(...(await withTempDir('bench-load-on', (dir) => phase(dir, true))));
    return rows;
  },
};

async function phase(dataDir: string, limits: boolean): Promise<Row[]> {
  const server = await startServer(dataDir, limits);
  try {
    const { token, wallet, admitted } = await prepare(server.url);
    const endpoints = mix(token, wallet);
    const runAll = (seconds: number) =>
      Promise.all(
        endpoints.map((e) => autocannon({ ...e.options(server.url), connections: CONNECTIONS, duration: seconds })),
      );
    const warmUp = await runAll(WARMUP_S);
    const heapBefore = await server.heapAfterGc();
    const rssBefore = residentMiB(server.pid);
    const serverCpuBefore = cpuMs(server.pid);
    const ownCpuBefore = process.cpuUsage();
    const started = performance.now();
    const results = await runAll(DURATION_S);
    const wallMs = performance.now() - started;
    const ownCpu = process.cpuUsage(ownCpuBefore);
    const serverCpu = cpuMs(server.pid) - serverCpuBefore;
    const rssAfter = residentMiB(server.pid);
    const heapAfter = await server.heapAfterGc();

    const mode = limits ? 'limits on' : 'limits off';
    const rows: Row[] = [];
    endpoints.forEach((endpoint, i) => {
      const r = results[i];
      if (!r) throw new Error(`no result for ${endpoint.label}`);
      const name = `mix ${mode}: ${endpoint.label}`;
      const target = TARGETS[endpoint.key] ?? {};
      const throughput = Number(r.requests.total) / r.duration || 0;
      const count429 = Number(r.statusCodeStats[String(RATE_LIMITED)]?.count ?? 0);
      rows.push(
        {
          name: `${name} throughput`,
          value: throughput,
          unit: 'req/s',
          ...(target.throughput ? { target: target.throughput } : {}),
        },
        // autocannon's histogram counts whole milliseconds, so a sub-millisecond answer reads as 0 ms.
        { name: `${name} latency p50`, value: r.latency.p50, unit: 'ms' },
        {
          name: `${name} latency p99`,
          value: r.latency.p99,
          unit: 'ms',
          ...(target.p99 ? { target: target.p99 } : {}),
        },
      );
      if (limits && endpoint.allowance !== undefined) {
        // The whole phase (preparation, warm-up, run) fits in one minute from one client, so the limiter must have
        // let through exactly one minute's allowance: fewer is a limiter refusing too soon, more is one that leaks.
        const answered = admitted[endpoint.key] + (warmUp[i]?.['2xx'] ?? 0) + r['2xx'];
        rows.push(
          {
            name: `${name} answered 2xx in the phase's first minute`,
            value: answered,
            unit: 'count',
            target: { op: '=', value: endpoint.allowance },
          },
          { name: `${name} 429 answers`, value: count429, unit: 'count' },
          { name: `${name} other errors`, value: r.non2xx - count429 + r.errors, unit: 'count', target: ZERO },
        );
      } else {
        rows.push({
          name: `${name} errors (non-2xx, failed)`,
          value: r.non2xx + r.errors,
          unit: 'count',
          target: ZERO,
        });
      }
    });
    if (limits) {
      rows.push({
        name: `mix ${mode}: sampled 429 bodies without code RATE_LIMITED`,
        value: await sampleRateLimited(server.url, endpoints),
        unit: 'count',
        target: ZERO,
      });
    }
    // Which side ran out of CPU: on 2 cores, a server under 100% of a core while the generator is near it means the
    // throughput figures are the load generator's limit, not the server's.
    rows.push(
      { name: `mix ${mode}: server CPU during the run`, value: (serverCpu / wallMs) * 100, unit: '% of a core' },
      {
        name: `mix ${mode}: load generator CPU during the run`,
        value: ((ownCpu.user + ownCpu.system) / 1000 / wallMs) * 100,
        unit: '% of a core',
      },
      { name: `mix ${mode}: server RSS before`, value: rssBefore, unit: 'MiB' },
      {
        name: `mix ${mode}: server RSS growth over ${DURATION_S} s`,
        value: rssAfter - rssBefore,
        unit: 'MiB',
        target: RSS_GROWTH_TARGET,
      },
      { name: `mix ${mode}: server heap after a full GC, before`, value: heapBefore, unit: 'MiB' },
      {
        name: `mix ${mode}: server heap after a full GC, growth over ${DURATION_S} s`,
        value: heapAfter - heapBefore,
        unit: 'MiB',
        target: HEAP_GROWTH_TARGET,
      },
    );
    return rows;
  } finally {
    await server.stop();
  }
}

function mix(token: string, wallet: string): Endpoint[] {
  const json = { 'content-type': 'application/json' };
  return [
    {
      key: 'quote',
      label: 'GET /quote',
      allowance: DEFAULT_RATE_LIMITS.quotesPerMinute,
      options: (api) => ({ url: `${api}/quote?token=${token}&side=buy&amount=0.1` }),
    },
    {
      key: 'build',
      label: 'POST /build/buy',
      allowance: DEFAULT_RATE_LIMITS.buildsPerMinute,
      options: (api) => ({
        url: `${api}/build/buy`,
        method: 'POST',
        headers: json,
        body: JSON.stringify({ wallet, token, amount: '0.1' }),
      }),
    },
    {
      key: 'launches',
      label: 'GET /launches?limit=50',
      options: (api) => ({ url: `${api}/launches?limit=50` }),
    },
    { key: 'settings', label: 'GET /settings', options: (api) => ({ url: `${api}/settings` }) },
  ];
}

/**
 * Waits for the seed launches, then picks one that a quote and a build both accept for the test wallet (a launch
 * paired with a currency the wallet does not hold would turn every build into an error, not into load).
 */
async function prepare(
  api: string,
): Promise<{ token: string; wallet: string; admitted: Record<Endpoint['key'], number> }> {
  const wallet = testAccounts()[WALLET_INDEX]?.address;
  if (!wallet) throw new Error(`no test account ${WALLET_INDEX}`);
  const deadline = Date.now() + SEED_TIMEOUT_MS;
  let launches: { token: string }[] = [];
  while (launches.length < MIN_SEED_LAUNCHES) {
    if (Date.now() > deadline) throw new Error(`only ${launches.length} seed launches after ${SEED_TIMEOUT_MS} ms`);
    const answer = await fetch(`${api}/launches?limit=50`);
    launches = answer.ok ? ((await answer.json()) as { launches: { token: string }[] }).launches : [];
    if (launches.length < MIN_SEED_LAUNCHES) await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const failures: string[] = [];
  // Answers this preparation was given, which count against the minute's allowance as the mix's own do.
  const admitted = { quote: 0, build: 0, launches: 0, settings: 0 };
  for (const { token } of launches) {
    const quote = await fetch(`${api}/quote?token=${token}&side=buy&amount=0.1`);
    const build = await fetch(`${api}/build/buy`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ wallet, token, amount: '0.1' }),
    });
    const [quoteBody, buildBody] = [await quote.text(), await build.text()];
    if (quote.ok) admitted.quote++;
    if (build.ok) admitted.build++;
    if (quote.status === 200 && build.status === 200) return { token, wallet, admitted };
    failures.push(
      `${token}: quote ${quote.status}, build ${build.status} ${buildBody.slice(0, 200)} ${quoteBody.slice(0, 100)}`,
    );
  }
  throw new Error(`no seed launch can be quoted and built for ${wallet}:\n${failures.join('\n')}`);
}

/**
 * After the limited run the window is still full, so plain requests to the limited endpoints answer 429 at once;
 * counts those whose body does not carry the spec's code (a 429 from something else would be a bug).
 */
async function sampleRateLimited(api: string, endpoints: readonly Endpoint[]): Promise<number> {
  let wrong = 0;
  for (const endpoint of endpoints.filter((e) => e.allowance !== undefined)) {
    for (let i = 0; i < 3; i++) {
      const { url, method, headers, body } = endpoint.options(api);
      const answer = await fetch(url, {
        method: method ?? 'GET',
        ...(headers ? { headers } : {}),
        ...(body ? { body } : {}),
      });
      const payload = (await answer.json().catch(() => ({}))) as { error?: { code?: string } };
      if (answer.status !== RATE_LIMITED || payload.error?.code !== 'RATE_LIMITED') wrong++;
    }
  }
  return wrong;
}

export interface RunningServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
  heapAfterGc(): Promise<number>;
}

/**
 * The serve bundle on a free port with its own data folder and no saved app settings; resolves at its ready line.
 * `nodeArgs` go to node before the bundle (`--cpu-prof` to see where a benchmark's time goes).
 */
export async function startServer(dataDir: string, limits: boolean, nodeArgs: string[] = []): Promise<RunningServer> {
  const args = [
    ...nodeArgs,
    '--expose-gc',
    '--require',
    HEAP_PROBE,
    SERVE_BUNDLE,
    '--port',
    '0',
    '--data',
    dataDir,
    '--network',
    'devnet',
    '--rate-limit',
    limits ? 'on' : 'off',
  ];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, APP_SETTINGS: join(dataDir, 'app-settings.json') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  const heapReadings: ((bytes: number) => void)[] = [];
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
    for (const match of chunk.matchAll(/^heap-after-gc (\d+)$/gm)) heapReadings.shift()?.(Number(match[1]));
  });
  /** The server's heap in use right after a full collection, in MiB (asked of the probe by SIGUSR2). */
  const heapAfterGc = () =>
    new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the heap probe did not answer')), 10_000);
      heapReadings.push((bytes) => {
        clearTimeout(timer);
        resolve(bytes / 2 ** 20);
      });
      child.kill('SIGUSR2');
    });
  const exited = (once(child, 'exit') as Promise<unknown[]>).catch(() => []);
  const stop = () => stopChild(child, exited);
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let stdout = '';
      const timer = setTimeout(
        () => reject(new Error(`no ready line within ${READY_TIMEOUT_MS} ms`)),
        READY_TIMEOUT_MS,
      );
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        const match = /^ready (http:\/\/127\.0\.0\.1:\d+\/api\/v1)$/m.exec(stdout);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`serve exited before ready\n${stderr}`));
      });
    });
    if (child.pid === undefined) throw new Error('serve has no pid');
    return { url, pid: child.pid, stop, heapAfterGc };
  } catch (error) {
    await stop();
    throw error;
  }
}
