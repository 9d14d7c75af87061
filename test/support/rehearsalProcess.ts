import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

export interface RehearsalProcess {
  /** Every JSON line it printed so far. */
  readonly lines: Record<string, any>[];
  /** Stops it with SIGTERM and returns its last JSON line (its balance sheet or summary). */
  stop(): Promise<Record<string, any>>;
}

/**
 * Runs a rehearsal tool (`scripts/rehearsal/<script>.ts`) as its own process with `--json`, as a person runs `npm
 * run traffic` or `npm run adversary` beside the app, and resolves once it says it is ready.
 */
export async function startRehearsalProcess(script: string, args: string[]): Promise<RehearsalProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'scripts', 'rehearsal', `${script}.ts`), ...args, '--json'],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const lines: Record<string, any>[] = [];
  let errors = '';
  let buffered = '';
  let readyResolve: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    readyResolve = resolve;
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    for (let at = buffered.indexOf('\n'); at >= 0; at = buffered.indexOf('\n')) {
      const line = buffered.slice(0, at).trim();
      buffered = buffered.slice(at + 1);
      if (!line.startsWith('{')) continue;
      try {
        const record = JSON.parse(line) as Record<string, any>;
        lines.push(record);
        if ('ready' in record) readyResolve();
      } catch {
        // A line that is not JSON is for a person reading the terminal.
      }
    }
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const failedEarly = exited.then((code) => {
    throw new Error(`${script} ${args.join(' ')} exited (${code}) before it was ready: ${errors.slice(-2000)}`);
  });
  await Promise.race([ready, failedEarly]);
  failedEarly.catch(() => {});
  return {
    lines,
    async stop() {
      child.kill('SIGTERM');
      const code = await exited;
      if (code !== 0) throw new Error(`${script} exited with ${code}: ${errors.slice(-2000)}`);
      const last = lines[lines.length - 1];
      if (!last) throw new Error(`${script} printed nothing: ${errors.slice(-2000)}`);
      return last;
    },
  };
}
