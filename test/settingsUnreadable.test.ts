import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, expect, it } from 'vitest';
import { type ChainContext, connectChain } from '../src-main/chain/connectChain';
import { createApp } from '../src-main/http/createApp';
import { lineLogger } from '../src-main/log/createLogger';
import { composeServices } from '../src-main/startService';
import { openDatabase } from '../src-main/store/openDatabase';

let server: ReturnType<typeof serve> | undefined;
afterAll(() => {
  server?.close();
});

it('answers FEES_UNREADABLE (503, retry) when the fee rates cannot be read from the chain', async () => {
  const devnet = await connectChain({ network: 'devnet', deploymentsDir: '/nonexistent' });
  // The same chain, but pointed at an address with no config contract behind it.
  const chain: ChainContext = {
    ...devnet,
    addresses: { ...devnet.addresses, config: '0x000000000000000000000000000000000000dEaD' },
  };
  const lines: string[] = [];
  const app = createApp(
    composeServices(chain, openDatabase(':memory:'), {
      dataDir: '/nonexistent',
      network: 'devnet',
      logger: lineLogger((line) => lines.push(line)),
    }),
  );
  server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 });
  await new Promise((resolve) => server?.once('listening', resolve));
  const port = (server.address() as AddressInfo).port;
  const response = await fetch(`http://127.0.0.1:${port}/api/v1/settings`);
  expect(response.status).toBe(503);
  expect(response.headers.get('retry-after')).toBe('5');
  const body = (await response.json()) as { error: { code: string; fix: string } };
  expect(body.error.code).toBe('FEES_UNREADABLE');
  expect(body.error.fix).toBeTruthy();
  expect(lines.some((line) => line.startsWith('FEES_UNREADABLE'))).toBe(true);
});
