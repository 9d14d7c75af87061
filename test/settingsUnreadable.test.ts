import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, expect, it } from 'vitest';
import { type ChainContext, connectChain } from '../src-main/chain/connectChain';
import { createApp } from '../src-main/http/createApp';
import { BuildService } from '../src-main/services/buildService';
import { LaunchService } from '../src-main/services/launchService';
import { MediaStore } from '../src-main/services/mediaStore';
import { PoolStateService } from '../src-main/services/poolStateService';
import { QuoteService } from '../src-main/services/quoteService';
import { ReferrerEligibility } from '../src-main/services/referrerEligibility';
import { SettingsService } from '../src-main/services/settingsService';
import { TokenRegistry } from '../src-main/services/tokenRegistry';

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
  const app = createApp({
    chain,
    settings: new SettingsService(chain),
    tokens: new TokenRegistry(chain),
    quotes: new QuoteService(new PoolStateService(chain), new SettingsService(chain)),
    launches: new LaunchService(chain, new SettingsService(chain), new MediaStore({ dataDir: '/nonexistent' })),
    media: new MediaStore({ dataDir: '/nonexistent' }),
    builds: new BuildService(
      chain,
      new QuoteService(new PoolStateService(chain), new SettingsService(chain)),
      new ReferrerEligibility(chain),
    ),
    log: (line) => lines.push(line),
  });
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
