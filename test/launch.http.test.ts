import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type Address,
  createWalletClient,
  encodeFunctionData,
  http,
  type PublicClient,
  parseEther,
  parseEventLogs,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAccounts } from '../src-main/chain/devnet/testAccounts';
import { DevStablecoin, FalseToken, LaunchFactory, ServiceConfig } from '../src-main/chain/generated/contracts';
import { PancakeV3Pool } from '../src-main/chain/generated/vendor';
import { devnetChain } from '../src-main/chain/networks';
import { type ApiClient, apiClient } from './support/apiClient';
import { startTestService, type TestService } from './support/startTestService';

/** A 1x1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

let service: TestService;
let client: PublicClient;
let api: ApiClient;
let images: Server;
let imageUrl: string;

beforeAll(async () => {
  service = await startTestService();
  api = apiClient(service);
  client = api.client;
  images = createServer((req, res) => {
    if (req.url === '/logo.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(PNG);
    } else if (req.url === '/big.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(Buffer.concat([PNG, Buffer.alloc(6 * 1024 * 1024)]));
    } else if (req.url === '/text') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('not an image');
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
  imageUrl = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
});
afterAll(async () => {
  images?.close();
  await service?.dispose();
});

const post = (path: string, body: unknown) => api.post(path, body);

const signAndSend: ApiClient['signAndSend'] = (index, tx) => api.signAndSend(index, tx);

const creator = () => testAccounts()[2]?.address as Address;

describe('POST /build/launch', () => {
  it('builds a BNB launch with a logo and a first buy that lands as described', async () => {
    const { status, body } = await post('/build/launch', {
      wallet: creator(),
      name: 'Moon Cat',
      symbol: 'MCAT',
      marketCapPair: '25',
      image: `${imageUrl}/logo.png`,
      description: 'a cat on the moon',
      shape: 'stepped',
      firstBuy: '1.5',
      firstBuyTo: [
        { wallet: testAccounts()[8]?.address, pct: 60 },
        { wallet: '0x000000000000000000000000000000000000dEaD', pct: 40 },
      ],
    });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.simulation).toEqual({ ran: true, ok: true });
    expect(body.requires).toEqual([]);
    expect(body.opening.marketCapPair).toBeGreaterThanOrEqual(25);
    expect(body.opening.driftFromAskedPct).toBeGreaterThanOrEqual(0);
    expect(body.opening.driftFromAskedPct).toBeLessThan(2.1);
    expect(body.opening.marketCapUsd).toBeGreaterThan(25 * 590);
    expect(body.pair).toMatchObject({ symbol: 'BNB', priced: true });
    expect(body.royalty).toMatchObject({ kind: 'keep', burnPct: 0, to: creator() });
    expect(body.metadata.uri).toMatch(/^ipfs:\/\/bafkrei/);
    expect(body.firstBuyTo).toEqual([
      { wallet: testAccounts()[8]?.address, pct: 60 },
      { wallet: '0x000000000000000000000000000000000000dEaD', pct: 40 },
    ]);
    expect(body.tx.value).toBe(parseEther('1.5').toString());
    const receipt = await signAndSend(2, body.tx);
    expect(BigInt(receipt.gasUsed) <= BigInt(body.tx.gas)).toBe(true);
    const token = body.token as Address;
    expect(await client.readContract({ address: token, abi: DevStablecoin.abi, functionName: 'totalSupply' })).toBe(
      parseEther('1000000000'),
    );
    const launched = await fetch(`${service.url}/tokens/${token}`);
    const facts = (await launched.json()) as { pool: Address; creator: Address };
    expect(facts.creator).toBe(creator());
    const [, tick] = await client.readContract({ address: facts.pool, abi: PancakeV3Pool.abi, functionName: 'slot0' });
    // The first buy moved the price up from the opening tick (in the token's direction).
    expect(tick).not.toBe(body.opening.tick);
    const got = await client.readContract({
      address: token,
      abi: DevStablecoin.abi,
      functionName: 'balanceOf',
      args: [testAccounts()[8]?.address as Address],
    });
    expect(got >= (BigInt(body.firstBuy.minTokens.wei) * 60n) / 100n).toBe(true);
    // The launched token trades through the trade builds.
    const buy = await post('/build/buy', { wallet: testAccounts()[9]?.address, token, amount: '0.2' });
    expect(buy.status).toBe(200);
    await signAndSend(9, buy.body.tx);
  });

  it('launches with a logo uploaded to POST /media/image, served back from this server', async () => {
    const upload = await fetch(`${service.url}/media/image`, {
      method: 'POST',
      body: PNG,
      headers: { 'content-type': 'image/png' },
    });
    expect(upload.status).toBe(200);
    const stored = (await upload.json()) as { url: string; uri: string; cid: string };
    expect(stored.uri).toBe(`ipfs://${stored.cid}`);
    expect(stored.url).toBe(`${service.origin}/media/${stored.cid}`);
    const served = await fetch(stored.url);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
    const { status, body } = await post('/build/launch', {
      wallet: creator(),
      name: 'Uploaded',
      symbol: 'UPL',
      marketCapPair: '5',
      image: stored.url,
      website: 'https://example.com',
    });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.metadata.image).toBe(stored.uri);
    const text = await fetch(`${service.url}/media/image`, {
      method: 'POST',
      body: 'hello',
      headers: { 'content-type': 'text/plain' },
    });
    expect(((await text.json()) as any).error.code).toBe('UNSUPPORTED_IMAGE');
  });

  it('opens from a dollar cap at the live BNB price', async () => {
    const { status, body } = await post('/build/launch', {
      wallet: creator(),
      name: 'Dollar',
      symbol: 'USD1',
      marketCapUsd: '60000',
      image: `${imageUrl}/logo.png`,
    });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.opening.marketCapUsd).toBeGreaterThanOrEqual(59_000);
    expect(body.opening.marketCapUsd).toBeLessThan(62_000);
    expect(body.opening.marketCapPair).toBeGreaterThan(98);
  });

  it('answers every launch error with its code and field', async () => {
    const base = { wallet: creator(), name: 'Err', symbol: 'ERR', marketCapPair: '10', image: `${imageUrl}/logo.png` };
    const cases: [Record<string, unknown>, string, string?][] = [
      [{ ...base, wallet: 'nope' }, 'INVALID_ADDRESS', 'wallet'],
      [{ ...base, name: 'x'.repeat(65) }, 'INVALID_LAUNCH', 'name'],
      [{ ...base, name: '😀'.repeat(17) }, 'INVALID_LAUNCH', 'name'],
      [{ ...base, symbol: 'S'.repeat(33) }, 'INVALID_LAUNCH', 'symbol'],
      [{ ...base, marketCapPair: undefined }, 'MISSING_MARKET_CAP'],
      [{ ...base, supply: '0' }, 'INVALID_SUPPLY', 'supply'],
      [{ ...base, supply: '1000000000001' }, 'INVALID_SUPPLY', 'supply'],
      [{ ...base, pair: 'DOGE' }, 'UNSUPPORTED_PAIR', 'pair'],
      [{ ...base, pair: '0x00000000000000000000000000000000c0ffee01' }, 'UNSUPPORTED_PAIR', 'pair'],
      [
        {
          ...base,
          firstBuy: '1',
          firstBuyTo: [
            { wallet: creator(), pct: 50 },
            { wallet: creator(), pct: 50 },
          ],
        },
        'INVALID_LAUNCH',
      ],
      [{ ...base, firstBuy: '1', firstBuyTo: [{ wallet: creator(), pct: 90 }] }, 'INVALID_LAUNCH', 'firstBuyTo'],
      [{ ...base, firstBuy: '1', slippagePct: 0.1 }, 'INVALID_SLIPPAGE', 'slippagePct'],
      [{ ...base, image: undefined }, 'MISSING_IMAGE', 'image'],
      [{ ...base, image: 'ftp://example.com/logo.png' }, 'INVALID_IMAGE'],
      [{ ...base, image: `${imageUrl}/text` }, 'UNSUPPORTED_IMAGE'],
      [{ ...base, image: `${imageUrl}/missing.png` }, 'INVALID_IMAGE'],
      [{ ...base, image: undefined, metadataURI: 'ftp://x' }, 'INVALID_METADATA_URI', 'metadataURI'],
      [{ ...base, metadataURI: 'https://example.com/m.json' }, 'CONFLICTING_METADATA', 'metadataURI'],
      [{ ...base, burnPct: 0.5 }, 'INVALID_BURN', 'burnPct'],
      [{ ...base, burnPct: 12.345 }, 'INVALID_BURN', 'burnPct'],
      [{ ...base, burnPct: 10, royaltyTo: creator() }, 'CONFLICTING_ROYALTY', 'royaltyTo'],
      [{ ...base, shape: 'wavy' }, 'INVALID_SHAPE', 'shape'],
      [{ ...base, feeTier: 3000 }, 'INVALID_LAUNCH', 'feeTier'],
      [
        { ...base, pair: '0x000000000000000000000000000000000000dEaD', marketCapUsd: '100', marketCapPair: undefined },
        'UNSUPPORTED_PAIR',
      ],
      [{ ...base, wallet: '0x00000000000000000000000000000000c0ffee02' }, 'INSUFFICIENT_BALANCE'],
      [{ ...base, firstBuy: '20000' }, 'INSUFFICIENT_BALANCE'],
      // One token at a 10 BNB cap: 10^50 BNB is more than buying the whole supply up to the pool's top price costs.
      [{ ...base, supply: '1', firstBuy: `1${'0'.repeat(50)}` }, 'POOL_TOO_THIN', 'firstBuy'],
      [{ ...base, firstBuy: '0.000000000000000001' }, 'AMOUNT_TOO_SMALL', 'firstBuy'],
    ];
    for (const [body, code, field] of cases) {
      const answer = await post('/build/launch', body);
      expect(answer.body.error?.code, JSON.stringify(body)).toBe(code);
      if (field) expect(answer.body.error.field, JSON.stringify(body)).toBe(field);
    }
  });
});

describe('POST /build/launch against the chain state', () => {
  async function asOperator(
    functionName: 'setLaunchesPaused' | 'setLaunchFee' | 'setFeeRecipient',
    args: readonly unknown[],
  ) {
    const settings = (await (await fetch(`${service.url}/settings`)).json()) as { contracts: Record<string, Address> };
    const config = settings.contracts.config as Address;
    const account = privateKeyToAccount(testAccounts()[0]?.privateKey ?? '0x');
    const wallet = createWalletClient({ account, chain: devnetChain, transport: http(`${service.origin}/rpc`) });
    const hash = await wallet.writeContract({ address: config, abi: ServiceConfig.abi, functionName, args } as never);
    expect((await client.getTransactionReceipt({ hash })).status).toBe('success');
    return config;
  }
  const base = () => ({
    wallet: creator(),
    name: 'State',
    symbol: 'ST',
    marketCapPair: '10',
    image: `${imageUrl}/logo.png`,
  });

  it('answers LAUNCHES_PAUSED while the factory is paused', async () => {
    await asOperator('setLaunchesPaused', [true]);
    const { status, body } = await post('/build/launch', base());
    expect(status).toBe(503);
    expect(body.error.code).toBe('LAUNCHES_PAUSED');
    await asOperator('setLaunchesPaused', [false]);
    expect((await post('/build/launch', base())).status).toBe(200);
  });

  it('answers SIMULATION_FAILED with the reason when the launch would revert', async () => {
    // A pair token that refuses to move the creator's tokens makes the first buy, and so the launch, revert.
    const account = privateKeyToAccount(testAccounts()[2]?.privateKey ?? '0x');
    const wallet = createWalletClient({ account, chain: devnetChain, transport: http(`${service.origin}/rpc`) });
    const deployed = await wallet.deployContract({
      abi: FalseToken.abi,
      bytecode: FalseToken.bytecode,
      args: [10n ** 24n],
    });
    const falsy = (await client.getTransactionReceipt({ hash: deployed })).contractAddress as Address;
    const factory = ((await (await fetch(`${service.url}/settings`)).json()) as { contracts: Record<string, Address> })
      .contracts.factory as Address;
    for (const [functionName, args] of [
      ['approve', [factory, 10n ** 24n]],
      ['refuseTransfersFrom', [account.address]],
    ] as const) {
      const hash = await wallet.writeContract({ address: falsy, abi: FalseToken.abi, functionName, args } as never);
      expect((await client.getTransactionReceipt({ hash })).status).toBe('success');
    }
    const { status, body } = await post('/build/launch', { ...base(), pair: falsy, firstBuy: '1' });
    expect(status).toBe(422);
    expect(body.error.code).toBe('SIMULATION_FAILED');
    expect(body.error.detail.revert.name).toBe('TokenTransferFailed');
  });

  it('answers NO_PRICE, SHAPE_BELOW_LADDER, IMAGE_TOO_LARGE and INVALID_METADATA', async () => {
    // A BEP-20 pair with no dollar pool has no price: a dollar cap cannot be used.
    const launched = await post('/build/launch', { ...base(), marketCapPair: '3' });
    const tokenAsPair = launched.body.token;
    await signAndSend(2, launched.body.tx);
    const noPrice = await post('/build/launch', {
      ...base(),
      pair: tokenAsPair,
      marketCapPair: undefined,
      marketCapUsd: '1000',
    });
    expect(noPrice.body.error.code).toBe('NO_PRICE');
    expect(noPrice.status).toBe(503);
    const high = await post('/build/launch', {
      ...base(),
      supply: '1',
      marketCapPair: '100000000000000000000000000000000000000',
      shape: 'stepped',
    });
    expect(high.body.error.code).toBe('SHAPE_BELOW_LADDER');
    const big = await post('/build/launch', { ...base(), image: `${imageUrl}/big.png` });
    expect(big.body.error.code).toBe('IMAGE_TOO_LARGE');
    expect(big.status).toBe(413);
    const bad = await post('/build/launch', { ...base(), website: 'http://insecure.example' });
    expect(bad.body.error).toMatchObject({ code: 'INVALID_METADATA', field: 'website' });
  });
});

describe('POST /build/launch with a tight gas cap', () => {
  it('answers TOO_MUCH_GAS when the launch needs more than one transaction may use', async () => {
    const tight = await startTestService(undefined, { maxTxGas: 5_000_000n });
    try {
      const answer = await fetch(`${tight.url}/build/launch`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          wallet: creator(),
          name: 'Gas',
          symbol: 'GAS',
          marketCapPair: '10',
          image: `${imageUrl}/logo.png`,
        }),
      });
      expect(answer.status).toBe(422);
      expect(((await answer.json()) as any).error.code).toBe('TOO_MUCH_GAS');
    } finally {
      await tight.dispose();
    }
  });
});

describe('a USDT launch end to end', () => {
  it('asks for the factory approval first, lands with a steep shape and a first buy, and pays the royalty by burnPct', async () => {
    const wallet = testAccounts()[3]?.address as Address;
    const request = {
      wallet,
      name: 'Dollar Dog',
      symbol: 'DDOG',
      pair: 'USDT',
      marketCapPair: '50000',
      supply: '21000000',
      image: `${imageUrl}/logo.png`,
      shape: 'steep',
      firstBuy: '500',
      burnPct: 50,
      feeTier: 2500,
    };
    const first = await post('/build/launch', request);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.requires.map((s: { step: string }) => s.step)).toEqual(['approve-factory']);
    expect(first.body.simulation).toEqual({ ran: false, ok: false });
    await signAndSend(3, first.body.requires[0].tx);
    const { body } = await post('/build/launch', request);
    expect(body.requires).toEqual([]);
    expect(body.simulation).toEqual({ ran: true, ok: true });
    expect(body.royalty).toMatchObject({ kind: 'split', burnPct: 50 });
    expect(body.tx.value).toBe('0');
    await signAndSend(3, body.tx);
    const token = body.token as Address;
    const facts = (await (await fetch(`${service.url}/tokens/${token}`)).json()) as { pool: Address; fee: number };
    expect(facts.fee).toBe(2500);
    // Every range holds at most its share of the supply, and all of it is in the pool, bought, or burned as dust.
    const supply = parseEther('21000000');
    const inPool = await client.readContract({
      address: token,
      abi: DevStablecoin.abi,
      functionName: 'balanceOf',
      args: [facts.pool],
    });
    const bought = await client.readContract({
      address: token,
      abi: DevStablecoin.abi,
      functionName: 'balanceOf',
      args: [wallet],
    });
    const dead = await client.readContract({
      address: token,
      abi: DevStablecoin.abi,
      functionName: 'balanceOf',
      args: ['0x000000000000000000000000000000000000dEaD'],
    });
    expect(inPool + bought + dead).toBe(supply);
    expect(bought >= BigInt(body.firstBuy.minTokens.wei)).toBe(true);
    expect(body.ranges).toHaveLength(4);

    // Trades make fees; collect pays half the royalty and buys back and burns the other half.
    const trader = 9;
    const traderAddress = testAccounts()[trader]?.address as Address;
    const buy1 = await post('/build/buy', { wallet: traderAddress, token, amount: '2000' });
    for (const step of buy1.body.requires) await signAndSend(trader, step.tx);
    const buy2 = await post('/build/buy', { wallet: traderAddress, token, amount: '2000' });
    await signAndSend(trader, buy2.body.tx);
    const held = await client.readContract({
      address: token,
      abi: DevStablecoin.abi,
      functionName: 'balanceOf',
      args: [traderAddress],
    });
    const sell1 = await post('/build/sell', { wallet: traderAddress, token, amount: formatUnitsWhole(held / 2n) });
    for (const step of sell1.body.requires) await signAndSend(trader, step.tx);
    const sell2 = await post('/build/sell', { wallet: traderAddress, token, amount: formatUnitsWhole(held / 2n) });
    await signAndSend(trader, sell2.body.tx);
    const settings = (await (await fetch(`${service.url}/settings`)).json()) as { contracts: Record<string, Address> };
    const usdt = settings.contracts.usdt as Address;
    const usdtBefore = await client.readContract({
      address: usdt,
      abi: DevStablecoin.abi,
      functionName: 'balanceOf',
      args: [wallet],
    });
    const collect = await signAndSend(5, {
      to: settings.contracts.factory as Address,
      data: encodeFunctionData({ abi: LaunchFactory.abi, functionName: 'collect', args: [token] }),
      value: '0',
    });
    const [collected] = parseEventLogs({ abi: LaunchFactory.abi, logs: collect.logs, eventName: 'Collected' });
    if (!collected) throw new Error('no Collected event');
    const { pairFees, pairToRoyalty, tokensBurned } = collected.args;
    expect(pairFees > 0n).toBe(true);
    expect(pairToRoyalty).toBe(pairFees - pairFees / 2n);
    expect(tokensBurned > 0n).toBe(true);
    const usdtAfter = await client.readContract({
      address: usdt,
      abi: DevStablecoin.abi,
      functionName: 'balanceOf',
      args: [wallet],
    });
    expect(usdtAfter - usdtBefore).toBe(pairToRoyalty);
  });
});

/** Whole tokens (rounded down) as a decimal string, for a build's amount. */
function formatUnitsWhole(wei: bigint): string {
  return (wei / 10n ** 18n).toString();
}

describe('a launch against any BEP-20 pair, with a launch fee', () => {
  it('opens at the reported tick and pays the launch fee to the fee recipient', async () => {
    // Another launched token serves as the pair: any readable BEP-20 is allowed.
    const pairLaunch = await post('/build/launch', {
      wallet: creator(),
      name: 'Pair',
      symbol: 'PAIR',
      marketCapPair: '4',
      image: `${imageUrl}/logo.png`,
    });
    await signAndSend(2, pairLaunch.body.tx);
    const settings = (await (await fetch(`${service.url}/settings`)).json()) as { contracts: Record<string, Address> };
    const operator = createWalletClient({
      account: privateKeyToAccount(testAccounts()[0]?.privateKey ?? '0x'),
      chain: devnetChain,
      transport: http(`${service.origin}/rpc`),
    });
    await operator.writeContract({
      address: settings.contracts.config as Address,
      abi: ServiceConfig.abi,
      functionName: 'setLaunchFee',
      args: [parseEther('0.01')],
    });
    const { status, body } = await post('/build/launch', {
      wallet: testAccounts()[4]?.address,
      name: 'Paired',
      symbol: 'PRD',
      pair: pairLaunch.body.token,
      marketCapPair: '1000000',
      image: `${imageUrl}/logo.png`,
    });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.pair).toMatchObject({ address: pairLaunch.body.token, symbol: 'PAIR', priced: false });
    expect(body.launchFee).toMatchObject({ amount: '0.01', wei: parseEther('0.01').toString() });
    expect(body.tx.value).toBe(parseEther('0.01').toString());
    const recipient = settings.contracts.siteFeeRecipient as Address;
    const before = await client.getBalance({ address: recipient });
    const receipt = await signAndSend(4, body.tx);
    expect((await client.getBalance({ address: recipient })) - before).toBe(parseEther('0.01'));
    const [launched] = parseEventLogs({ abi: LaunchFactory.abi, logs: receipt.logs, eventName: 'Launched' });
    expect(launched?.args.openingTick).toBe(body.opening.tick);
    expect(launched?.args.token).toBe(body.token);
    const [, tick] = await client.readContract({
      address: launched?.args.pool as Address,
      abi: PancakeV3Pool.abi,
      functionName: 'slot0',
    });
    expect(tick).toBe(body.opening.tick);
    await operator.writeContract({
      address: settings.contracts.config as Address,
      abi: ServiceConfig.abi,
      functionName: 'setLaunchFee',
      args: [0n],
    });
  });
});

describe('POST /build/launch when images cannot be stored', () => {
  it('answers STORAGE_UNAVAILABLE (503, retry) for the upload and the launch, and nothing is launched', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'companion-nostore-'));
    // A file where the media folder should be: nothing can be written there.
    writeFileSync(join(dir, 'media'), 'not a folder');
    const broken = await startTestService(dir, { seed: false });
    try {
      const upload = await fetch(`${broken.url}/media/image`, {
        method: 'POST',
        body: PNG,
        headers: { 'content-type': 'image/png' },
      });
      expect(upload.status).toBe(503);
      expect(((await upload.json()) as any).error.code).toBe('STORAGE_UNAVAILABLE');
      const launch = await fetch(`${broken.url}/build/launch`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          wallet: creator(),
          name: 'Lost',
          symbol: 'LOST',
          marketCapPair: '10',
          image: `${imageUrl}/logo.png`,
        }),
      });
      expect(launch.status).toBe(503);
      expect(launch.headers.get('retry-after')).toBe('5');
      expect(((await launch.json()) as any).error.code).toBe('STORAGE_UNAVAILABLE');
    } finally {
      await broken.dispose();
    }
  });
});
