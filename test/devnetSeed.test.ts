import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, getAbiItem, http, type PublicClient } from 'viem';
import { afterAll, expect, it } from 'vitest';
import { LaunchFactory } from '../src-main/chain/generated/contracts';
import { devnetChain } from '../src-main/chain/networks';
import { startTestService } from './support/startTestService';

const dataDir = mkdtempSync(join(tmpdir(), 'companion-seed-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function launchesOn(origin: string) {
  const client = createPublicClient({ chain: devnetChain, transport: http(`${origin}/rpc`) }) as PublicClient;
  const settings = (await (await fetch(`${origin}/api/v1/settings`)).json()) as {
    contracts: { factory: `0x${string}` };
  };
  return client.getLogs({
    address: settings.contracts.factory,
    event: getAbiItem({ abi: LaunchFactory.abi, name: 'Launched' }),
    fromBlock: 0n,
  });
}

it('seeds a fresh devnet with launches of every kind, with logos, once', async () => {
  const first = await startTestService(dataDir, { seed: true });
  await first.seeded;
  const launches = await launchesOn(first.origin);
  expect(launches).toHaveLength(4);
  for (const launch of launches) {
    const token = await (await fetch(`${first.url}/tokens/${launch.args.token}`)).json();
    expect(token.creator).toBe(launch.args.creator);
    expect(launch.args.metadataURI).toMatch(/^ipfs:\/\/bafkrei/);
  }
  expect(new Set(launches.map((l) => l.args.fee))).toEqual(new Set([10000, 2500, 500]));
  expect(new Set(launches.map((l) => l.args.pair)).size).toBe(2);
  // Each token trades: a quote answers for every seeded token.
  for (const launch of launches) {
    const quote = await fetch(`${first.url}/quote?token=${launch.args.token}&side=buy&amount=0.01`);
    expect(quote.status).toBe(200);
  }
  await first.close();

  // The seed is replayed from the journal, not made again.
  const again = await startTestService(dataDir, { seed: true });
  await again.seeded;
  expect(await launchesOn(again.origin)).toHaveLength(4);
  await again.close();
});
