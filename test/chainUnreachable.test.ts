import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { startTestService, type TestService } from './support/startTestService';

let service: TestService;

beforeAll(async () => {
  // A testnet configuration whose RPC does not answer: nothing listens on port 9 of the loopback.
  const deployments = mkdtempSync(join(tmpdir(), 'companion-deployments-'));
  mkdirSync(deployments, { recursive: true });
  const fake = '0x00000000000000000000000000000000000000aa';
  writeFileSync(join(deployments, 'testnet.json'), JSON.stringify({ config: fake, factory: fake, router: fake }));
  service = await startTestService(undefined, {
    network: 'testnet',
    rpcUrl: 'http://127.0.0.1:9',
    deploymentsDir: deployments,
  });
});
afterAll(async () => {
  await service?.dispose();
});

it('answers CHAIN_UNREACHABLE (503, retry) when the RPC does not answer, and FEES_UNREADABLE for settings', async () => {
  const token = '0x00000000000000000000000000000000c0ffee01';
  const wallet = '0x00000000000000000000000000000000c0ffee02';
  const answers = [
    await fetch(`${service.url}/tokens/${token}`),
    await fetch(`${service.url}/quote?token=${token}&side=buy&amount=1`),
    await fetch(`${service.url}/build/buy`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ wallet, token, amount: '1' }),
    }),
  ];
  for (const answer of answers) {
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('5');
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('CHAIN_UNREACHABLE');
  }
  const settings = await fetch(`${service.url}/settings`);
  expect(settings.status).toBe(503);
  expect(((await settings.json()) as { error: { code: string } }).error.code).toBe('FEES_UNREADABLE');
  // The API itself stays up and answers what needs no chain.
  expect((await fetch(`${service.url}/errors`)).status).toBe(200);
  expect((await fetch(`${service.url}/launches`)).status).toBe(200);
});

it('shows the indexer retrying, with the reason, while the RPC does not answer', async () => {
  await vi.waitFor(
    async () => {
      const status = (await (await fetch(`${service.url}/status`)).json()) as any;
      expect(status.indexer.state).toBe('retrying');
      expect(status.indexer.lastError.message).toBeTruthy();
    },
    { timeout: 10_000, interval: 100 },
  );
});
