import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Address,
  createPublicClient,
  createTestClient,
  custom,
  type Hex,
  http,
  type PublicClient,
  parseEther,
  parseTransaction,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForkError, forkAddresses, readForkSource } from '../src-main/chain/devnet/forkSource';
import { startDevnet } from '../src-main/chain/devnet/startDevnet';
import { testAccounts } from '../src-main/chain/devnet/testAccounts';
import { ServiceConfig } from '../src-main/chain/generated/contracts';
import { devnetChain, FORK_CHAIN_ID, forkChain } from '../src-main/chain/networks';
import type { AppInfo, WalletFunded } from '../src-shared/appChannelTypes';
import { devnetAddresses } from '../src-shared/inspect/devnetContracts';
import { launcher } from './support/launcher';
import { startTestService, type TestService } from './support/startTestService';
import { testnetDeployments } from './support/testnetDeployments';
import { tokenBalance } from './support/tokenBalance';

const accounts = testAccounts();
const TRADER = 5;
const trader = privateKeyToAccount(accounts[TRADER]?.privateKey ?? '0x');
/** A wallet none of the test accounts is: the person's own (a Ledger's) address. */
const PERSON: Address = '0x1234567890AbcdEF1234567890aBcdef12345678';

let source: TestService;
let sourceClient: PublicClient;
let sourceToken: Address;
let forkDir: string;

/** Starts a rehearsal forking the source devnet over HTTP, in `forkDir` unless told otherwise. */
function startFork(options: { url?: string; dir?: string; forkBlock?: bigint | 'latest'; blockTimeMs?: number } = {}) {
  const lines: string[] = [];
  return startTestService(options.dir ?? forkDir, {
    network: 'fork',
    rpcUrl: options.url ?? `${source.origin}/rpc`,
    ...(options.forkBlock !== undefined ? { forkBlock: options.forkBlock } : {}),
    ...(options.blockTimeMs !== undefined ? { blockTimeMs: options.blockTimeMs } : {}),
    log: (line) => lines.push(line),
  }).then((service) => ({ service, lines }));
}

async function json<T>(response: Promise<Response>): Promise<{ status: number; body: T }> {
  const answer = await response;
  return { status: answer.status, body: (await answer.json()) as T };
}

/** Builds a buy of `bnb` for the trader on `service`, signs it with the trader's key and sends it through its /rpc. */
async function buyOn(service: TestService, token: Address, bnb: string): Promise<{ raw: Hex; hash: Hex }> {
  const build = await json<{ tx: { chainId: number; to: Address; data: Hex; value: string; gas: string } }>(
    fetch(`${service.url}/build/buy`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ wallet: trader.address, token, amount: bnb }),
    }),
  );
  expect(build.status, JSON.stringify(build.body)).toBe(200);
  const client = createPublicClient({ transport: http(`${service.origin}/rpc`) });
  const { tx } = build.body;
  const raw = await trader.signTransaction({
    chainId: tx.chainId,
    to: tx.to,
    data: tx.data,
    value: BigInt(tx.value),
    gas: BigInt(tx.gas),
    nonce: await client.getTransactionCount({ address: trader.address }),
    maxFeePerGas: parseEther('0.00000005'),
    maxPriorityFeePerGas: 0n,
  });
  const hash = await client.sendRawTransaction({ serializedTransaction: raw });
  const receipt = await client.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe('success');
  return { raw, hash };
}

beforeAll(async () => {
  source = await startTestService();
  sourceClient = createPublicClient({ chain: devnetChain, transport: http(`${source.origin}/rpc`) }) as PublicClient;
  const { contracts } = (await (await fetch(`${source.url}/settings`)).json()) as {
    contracts: Record<string, Address>;
  };
  const { factory, wbnb } = contracts;
  if (!factory || !wbnb) throw new Error('settings lack the factory');
  const l = launcher({ accounts, contracts: { factory, wbnb }, transport: http(`${source.origin}/rpc`) }, sourceClient);
  const launched = await l.launch({ creator: 2, saltSeed: 'fork-source', firstBuy: parseEther('1') });
  if (launched.result !== 'ok') throw new Error(`source launch failed: ${launched.result}`);
  sourceToken = launched.token;
  forkDir = mkdtempSync(join(tmpdir(), 'companion-fork-'));
});

afterAll(async () => {
  await source?.dispose();
  rmSync(forkDir, { recursive: true, force: true });
});

describe('a rehearsal on a fork of another devnet', () => {
  it('deploys our contracts into the fork at start where the forked chain has none, and launches through them', async () => {
    const url = `${source.origin}/rpc`;
    const forkSource = await readForkSource(url);
    const { exchange } = forkAddresses(forkSource, join(forkDir, 'no-deployments'));
    // As on a BSC network where ours were never deployed: only the exchange is known.
    const devnet = await startDevnet({
      fork: {
        point: {
          url,
          sourceChainId: forkSource.chainId,
          blockNumber: forkSource.head,
          cacheDir: join(forkDir, 'cache'),
        },
        addresses: { exchange },
      },
    });
    expect(devnet.fork).toMatchObject({ contracts: 'deployed', sourceNetwork: 'devnet' });
    const sourceFactory = devnetAddresses().factory;
    expect(devnet.contracts.factory).not.toBe(sourceFactory);
    const client = createPublicClient({ chain: forkChain, transport: custom(devnet.provider) }) as PublicClient;
    expect((await client.getCode({ address: devnet.contracts.factory }))?.length).toBeGreaterThan(2);
    // Nothing of it exists on the source.
    expect(await sourceClient.getCode({ address: devnet.contracts.factory })).toBeUndefined();
    const launched = await launcher(devnet, client).launch({ creator: 6, saltSeed: 'deployed-into-fork' });
    expect(launched.result).toBe('ok');
    expect(
      await client.readContract({ address: devnet.contracts.config, abi: ServiceConfig.abi, functionName: 'owner' }),
    ).toBe(accounts[0]?.address);
  });

  it('quotes and buys a token launched on the source, under a chain id of its own, leaving the source untouched', async () => {
    const sourceBnb = await sourceClient.getBalance({ address: trader.address });
    const sourceHead = await sourceClient.getBlockNumber();
    const { service: fork, lines } = await startFork();
    try {
      const settings = await json<{ chainId: number; network: string; contracts: Record<string, Address> }>(
        fetch(`${fork.url}/settings`),
      );
      const sourceSettings = await json<{ contracts: Record<string, Address> }>(fetch(`${source.url}/settings`));
      expect(settings.body.chainId).toBe(FORK_CHAIN_ID);
      expect(settings.body.network).toBe('fork');
      for (const name of ['factory', 'router', 'referrals', 'wbnb', 'usdt', 'permit2', 'pancakeFactory'] as const) {
        expect(settings.body.contracts[name], name).toBe(sourceSettings.body.contracts[name]);
      }
      expect(lines.join('\n')).toMatch(/rehearsing on a fork of devnet \(chain 31337\) at block \d+ .* as chain 31338/);
      expect(fork.chain.fork).toMatchObject({ sourceChainId: 31337, block: Number(sourceHead), contracts: 'found' });

      // The token launched on the source before the fork is quoted and bought on the fork.
      const quote = await json<{ amountOut: string }>(
        fetch(`${fork.url}/quote?token=${sourceToken}&side=buy&amount=0.5`),
      );
      expect(quote.status, JSON.stringify(quote.body)).toBe(200);
      const forkClient = createPublicClient({ chain: forkChain, transport: http(`${fork.origin}/rpc`) });
      const { raw } = await buyOn(fork, sourceToken, '0.5');
      expect(parseTransaction(raw).chainId).toBe(FORK_CHAIN_ID);
      const held = await tokenBalance(forkClient, sourceToken, trader.address);
      expect(held).toBeGreaterThan(0n);

      // The source saw none of it, and refuses the rehearsal's signed transaction: it is for another chain.
      expect(await sourceClient.getBalance({ address: trader.address })).toBe(sourceBnb);
      expect(await tokenBalance(sourceClient, sourceToken, trader.address)).toBe(0n);
      await expect(sourceClient.sendRawTransaction({ serializedTransaction: raw })).rejects.toThrow(/chain/i);
      expect(await sourceClient.getBlockNumber()).toBe(sourceHead);

      // A launch made on the fork is indexed and served by the fork, and by the source not at all.
      const l = launcher(
        {
          accounts,
          contracts: {
            factory: settings.body.contracts.factory as Address,
            wbnb: settings.body.contracts.wbnb as Address,
          },
          transport: http(`${fork.origin}/rpc`),
        },
        forkClient as PublicClient,
      );
      const launched = await l.launch({ creator: 3, saltSeed: 'on-the-fork', symbol: 'FORK' });
      expect(launched.result).toBe('ok');
      await fork.indexer.waitFor(await forkClient.getBlockNumber());
      const forkLaunches = await json<{ launches: { token: Address }[] }>(fetch(`${fork.url}/launches`));
      expect(forkLaunches.body.launches.map((item) => item.token)).toContain(launched.token);
      const sourceLaunches = await json<{ launches: { token: Address }[] }>(fetch(`${source.url}/launches`));
      expect(sourceLaunches.body.launches.map((item) => item.token)).not.toContain(launched.token);

      // The person's own wallet (their Ledger's address) gets test BNB in one click, on the fork only.
      const info = (await fork.appChannel.invoke('app.info', {})) as AppInfo;
      expect(info.fork).toMatchObject({ sourceNetwork: 'devnet', sourceChainId: 31337, contracts: 'found' });
      const funded = (await fork.appChannel.invoke('wallet.fund', { address: PERSON })) as WalletFunded;
      expect(funded).toMatchObject({ address: PERSON, bnbWei: parseEther('100').toString() });
      expect(await forkClient.getBalance({ address: PERSON })).toBe(parseEther('100'));
      expect(await sourceClient.getBalance({ address: PERSON })).toBe(0n);
    } finally {
      await fork.close();
    }
  });

  it('replays the rehearsal on restart, at the same fork block even after the source moved on', async () => {
    // The source makes a block: a fresh fork would start later, the resumed one must not.
    await sourceClient.request({ method: 'evm_mine' } as never);
    const { service: fork } = await startFork();
    try {
      const forkClient = createPublicClient({ chain: forkChain, transport: http(`${fork.origin}/rpc`) });
      expect(fork.chain.devnet?.replay).toMatchObject({ blocks: expect.any(Number), mismatches: 0 });
      expect(fork.chain.devnet?.replay.blocks).toBeGreaterThan(0);
      const held = await tokenBalance(forkClient, sourceToken, trader.address);
      expect(held).toBeGreaterThan(0n);
      expect(await forkClient.getBalance({ address: PERSON })).toBe(parseEther('100'));
      const launches = await json<{ launches: { symbol: string }[] }>(fetch(`${fork.url}/launches`));
      expect(launches.body.launches.map((item) => item.symbol)).toContain('FORK');
    } finally {
      await fork.close();
    }
  });

  it('runs at a block cadence too: blocks on its own clock, a buy through the mempool, the clock moved', async () => {
    const { service: fork } = await startFork({ blockTimeMs: 750, dir: mkdtempSync(join(tmpdir(), 'fork-cadence-')) });
    try {
      const rpc = http(`${fork.origin}/rpc`);
      const forkClient = createPublicClient({ chain: forkChain, transport: rpc });
      const filter = await forkClient.createPendingTransactionFilter();
      const first = await forkClient.getBlockNumber({ cacheTime: 0 });
      // buyOn sends through the mempool and waits for the receipt: the pending filter saw it on the way.
      const { hash } = await buyOn(fork, sourceToken, '0.01');
      expect(await forkClient.getFilterChanges({ filter })).toContain(hash);
      // Through /rpc, so the devnet's own clock moves (its journal keeps the jump).
      await createTestClient({ mode: 'hardhat', transport: rpc }).increaseTime({ seconds: 86_400 });
      const before = Number((await forkClient.getBlock()).timestamp);
      await new Promise((resolve) => setTimeout(resolve, 1_600));
      const block = await forkClient.getBlock();
      expect(block.number).toBeGreaterThan(first + 1n);
      expect(Number(block.timestamp)).toBeGreaterThanOrEqual(before + 86_400);
    } finally {
      await fork.close();
    }
  });

  it('does not replay a rehearsal onto another source, and says where its blocks came from', async () => {
    // The same chain through another URL: a different source, as far as the journal knows.
    const otherUrl = `${source.origin}/rpc?via=another-url`;
    const { service: fork, lines } = await startFork({ url: otherUrl });
    try {
      expect(fork.chain.devnet?.replay.blocks).toBe(0);
      expect(lines.join('\n')).toMatch(
        /journal entries belong to a rehearsal forked from http:\/\/127\.0\.0\.1:\d+\/rpc at block \d+; kept, not replayed/,
      );
      const forkClient = createPublicClient({ chain: forkChain, transport: http(`${fork.origin}/rpc`) });
      expect(await tokenBalance(forkClient, sourceToken, trader.address)).toBe(0n);
    } finally {
      await fork.close();
    }
  });

  it('refuses to start on a fork whose exchange is not the PancakeSwap V3 our contracts work with', async () => {
    const url = `${source.origin}/rpc`;
    const forkSource = await readForkSource(url);
    const { exchange, ours } = forkAddresses(forkSource, join(forkDir, 'no-deployments'));
    const point = {
      url,
      sourceChainId: forkSource.chainId,
      blockNumber: forkSource.head,
      cacheDir: join(forkDir, 'c'),
    };
    // WBNB where a wallet is, as a wrong address list for the chain would have it.
    const wrong = { ...exchange, wbnb: trader.address };
    await expect(
      startDevnet({ fork: { point, addresses: { exchange: wrong, ...(ours ? { ours } : {}) } } }),
    ).rejects.toThrow(ForkError);
    const refusal = await startDevnet({ fork: { point, addresses: { exchange: wrong } } }).then(
      () => null,
      (error: Error) => error.message,
    );
    expect(refusal).toContain(`WBNB ${trader.address}: there is no contract at this address on chain 31338`);
    expect(refusal).toContain('Fork the chain these addresses belong to');
  });

  it('hands out no test BNB where BNB is real (testnet and mainnet)', async () => {
    const deployments = testnetDeployments(source.chain.addresses);
    const testnet = await startTestService(undefined, {
      network: 'testnet',
      rpcUrl: `${source.origin}/rpc`,
      deploymentsDir: deployments,
    });
    try {
      await expect(testnet.appChannel.invoke('wallet.fund', { address: PERSON })).rejects.toMatchObject({
        failure: { code: 'INVALID_INPUT', message: 'There is no test BNB on testnet: its BNB is real.' },
      });
      expect(await sourceClient.getBalance({ address: PERSON })).toBe(0n);
    } finally {
      await testnet.dispose();
    }
  });

  it('refuses a fork block past the source head, and a source that is not BSC or one of our devnets', async () => {
    const head = await sourceClient.getBlockNumber();
    const dir = mkdtempSync(join(tmpdir(), 'companion-fork-'));
    try {
      await expect(startFork({ dir, forkBlock: head + 10n })).rejects.toThrow(
        `--fork-block ${head + 10n} is past the head`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const ethereum = await jsonRpcServer({ eth_chainId: '0x1', eth_blockNumber: '0x10' });
    try {
      await expect(readForkSource(ethereum.url)).rejects.toThrow(ForkError);
      await expect(readForkSource(ethereum.url)).rejects.toThrow(
        /serves chain 1; a rehearsal forks BSC mainnet \(56\)/,
      );
    } finally {
      ethereum.server.close();
    }
    await expect(readForkSource('ftp://example.com')).rejects.toThrow(/http:\/\/ or https:\/\//);
  });
});

/** A JSON-RPC server answering fixed results: a chain the fork mode should refuse. */
async function jsonRpcServer(results: Record<string, string>): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const parsed = JSON.parse(body) as { id: number; method: string } | { id: number; method: string }[];
      const answer = (one: { id: number; method: string }) => ({
        jsonrpc: '2.0',
        id: one.id,
        result: results[one.method],
      });
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(Array.isArray(parsed) ? parsed.map(answer) : answer(parsed)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}
