import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The rehearsal tools send as the public test accounts: pointed at a node that serves BNB Chain itself (56) or its
 * testnet (97), each refuses to start and says why, having sent nothing. The node here answers only what a tool asks
 * first, and records every method it was asked.
 */
const ROOT = join(import.meta.dirname, '..', '..');
let server: Server;
let chainId = '0x38';
const asked: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const call = JSON.parse(body) as { id: number; method: string };
      asked.push(call.method);
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify(
          call.method === 'eth_chainId'
            ? { jsonrpc: '2.0', id: call.id, result: chainId }
            : { jsonrpc: '2.0', id: call.id, error: { code: -32601, message: 'not here' } },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(() => {
  server?.close();
});

function run(script: string, args: string[]): Promise<{ code: number | null; output: string }> {
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'scripts', 'rehearsal', `${script}.ts`), ...args, '--url', url],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, output })));
}

describe('rehearsal tools against BNB Chain itself', () => {
  for (const [id, name] of [
    ['0x38', 'mainnet (56)'],
    ['0x61', 'testnet (97)'],
  ] as const) {
    it(`refuse ${name}, saying why, and send nothing`, async () => {
      chainId = id;
      asked.length = 0;
      for (const [script, args] of [
        ['adversary', ['--kind', 'frontrun']],
        ['adversary', ['--kind', 'sandwich']],
        ['adversary', ['--kind', 'snipe']],
        ['traffic', ['--tps', '1']],
      ] as const) {
        const { code, output } = await run(script, [...args]);
        expect(code, `${script} ${args.join(' ')}: ${output}`).not.toBe(0);
        expect(output).toMatch(new RegExp(`chain ${Number(id)}, BNB Chain itself`));
      }
      expect(new Set(asked)).toEqual(new Set(['eth_chainId']));
    });
  }
});
