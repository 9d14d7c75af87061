import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { SERVE_BUNDLE } from '../scripts/buildServe';

const ROOT = join(import.meta.dirname, '..');

/** The headless server bundle in its own process, rate limits off; resolves with its API root once it is ready. */
export async function startServer(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [SERVE_BUNDLE, '--port', '0', '--data', dataDir, '--rate-limit', 'off'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /^ready (\S+)$/m.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before it was ready`)));
  });
  return { child, url };
}
