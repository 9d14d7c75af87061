import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createPublicClient, type HttpTransport, http, type PublicClient } from 'viem';
import { SERVE_BUNDLE } from '../scripts/buildServe';
import { devnetChain } from '../src-main/chain/networks';
import { withTempDir } from './tempDir';

const ROOT = join(import.meta.dirname, '..');

/**
 * The headless server bundle in its own process, rate limits off; resolves with its API root once it is ready. `args`
 * add flags (another network and its RPC); `cwd` is where it looks for ./deployments.
 */
export async function startServer(
  dataDir: string,
  options: { args?: string[]; cwd?: string } = {},
): Promise<{ child: ChildProcess; url: string }> {
  const args = [
    join(ROOT, SERVE_BUNDLE),
    '--port',
    '0',
    '--data',
    dataDir,
    '--rate-limit',
    'off',
    ...(options.args ?? []),
  ];
  const child = spawn(process.execPath, args, {
    cwd: options.cwd ?? ROOT,
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

export interface BenchServer {
  /** The API root, e.g. http://127.0.0.1:PORT/api/v1 */
  url: string;
  /** The devnet's JSON-RPC on that server. */
  transport: HttpTransport;
  client: PublicClient;
}

/** Runs `work` against a fresh server in its own process and data directory, and stops it afterwards. */
export function withServer<T>(name: string, work: (server: BenchServer) => Promise<T>): Promise<T> {
  return withTempDir(name, async (dataDir) => {
    const { child, url } = await startServer(dataDir);
    try {
      const transport = http(`${new URL(url).origin}/rpc`);
      const client = createPublicClient({ chain: devnetChain, transport }) as PublicClient;
      return await work({ url, transport, client });
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });
}
