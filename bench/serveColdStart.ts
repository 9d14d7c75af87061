import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { SERVE_BUNDLE } from '../scripts/buildServe';
import type { Benchmark } from './benchmark';
import { max, median } from './stats';
import { stopChild } from './stopChild';
import { withTempDir } from './tempDir';

const ROOT = join(import.meta.dirname, '..');
const RUNS = 5;
/** A start slower than this is treated as hung, not as a slow figure. */
const READY_TIMEOUT_MS = 60_000;
const READY_LINE = /^ready (http:\/\/127\.0\.0\.1:(\d+)\/api\/v1)$/;

/**
 * Wall time from spawning the headless server (`serve.ts` on a free port, fresh data directory) to its `ready` line,
 * which it prints only once the API answers: Node start-up, module loading, devnet deployment and listening. It runs
 * the bundle `npm run serve` runs (built by the bench's prebench step).
 */
export const serveColdStart: Benchmark = {
  id: 'serve-cold-start',
  async run() {
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) times.push(await withTempDir('bench-serve', startOnce));
    const target = { op: '<', value: 2000 } as const;
    return [
      { name: `serve cold start to ready, median of ${RUNS}`, value: median(times), unit: 'ms', target },
      { name: `serve cold start to ready, max of ${RUNS}`, value: max(times), unit: 'ms', target },
    ];
  },
};

async function startOnce(dataDir: string): Promise<number> {
  const args = [SERVE_BUNDLE, '--port', '0', '--data', dataDir, '--network', 'devnet'];
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  // 'error' (spawn failed) is reported below; here it only means there is no exit to wait for.
  const exited = (once(child, 'exit') as Promise<Exit>).catch((): Exit => [null, null]);
  try {
    const { elapsed, url } = await new Promise<{ elapsed: number; url: string }>((resolve, reject) => {
      let stdout = '';
      const timer = setTimeout(
        () => reject(new Error(`no ready line within ${READY_TIMEOUT_MS} ms`)),
        READY_TIMEOUT_MS,
      );
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        const newline = stdout.indexOf('\n');
        if (newline === -1) return;
        const elapsed = performance.now() - started;
        clearTimeout(timer);
        const match = READY_LINE.exec(stdout.slice(0, newline));
        if (!match?.[1] || match[2] === '0')
          reject(new Error(`unexpected first stdout line: ${stdout.slice(0, newline)}`));
        else resolve({ elapsed, url: match[1] });
      });
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      exited.then(([code, signal]) => {
        clearTimeout(timer);
        reject(new Error(`serve exited before ready (code ${code}, signal ${signal})\n${stderr}`));
      });
    });
    // Outside the timed window: the port it reported is real and the API answers there.
    const answer = await fetch(`${url}/settings`);
    await answer.arrayBuffer();
    if (answer.status !== 200) throw new Error(`GET ${url}/settings answered ${answer.status}`);
    return elapsed;
  } finally {
    await stopChild(child, exited);
  }
}

type Exit = [code: number | null, signal: NodeJS.Signals | null];
