import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Address, createWalletClient, type Hex, http, keccak256, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testAccounts } from '../src-main/chain/devnet/testAccounts';
import { NonfungiblePositionManager, PancakeV3Factory, PancakeV3Pool } from '../src-main/chain/generated/vendor';
import { devnetChain } from '../src-main/chain/networks';
import { getSqrtRatioAtTick } from '../src-main/core/math/tickMath';
import { type ApiClient, apiClient } from './support/apiClient';
import { startTestService, type TestService } from './support/startTestService';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

// The salts the service draws, in order: the first one twice, as if chance repeated it after an attacker used it.
const salts: Hex[] = [keccak256(toHex('first')), keccak256(toHex('first')), keccak256(toHex('second'))];
let drawn = 0;

let service: TestService;
let api: ApiClient;
let images: Server;
let imageUrl: string;

beforeAll(async () => {
  service = await startTestService(undefined, {
    launchSalts: () => salts[drawn++] ?? keccak256(toHex(`more-${drawn}`)),
  });
  api = apiClient(service);
  images = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'image/png' });
    res.end(PNG);
  });
  await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
  imageUrl = `http://127.0.0.1:${(images.address() as AddressInfo).port}/logo.png`;
});
afterAll(async () => {
  images?.close();
  await service?.dispose();
});

it('builds around a pool an attacker priced first, and the launch built before it takes that pool over', async () => {
  const creator = testAccounts()[2]?.address as Address;
  const request = { wallet: creator, name: 'Salted', symbol: 'SALT', marketCapPair: '10', image: imageUrl };
  const first = await api.post('/build/launch', request);
  expect(first.status, JSON.stringify(first.body)).toBe(200);
  const settings = (await api.get('/settings')).body as { contracts: Record<string, Address> };

  // The attacker reads the token address from the build and prices its pool before the launch lands.
  const attacker = privateKeyToAccount(testAccounts()[7]?.privateKey ?? '0x');
  const wallet = createWalletClient({
    account: attacker,
    chain: devnetChain,
    transport: http(`${service.origin}/rpc`),
  });
  const token = first.body.token as Address;
  const wbnb = settings.contracts.wbnb as Address;
  const [token0, token1] = BigInt(token) < BigInt(wbnb) ? [token, wbnb] : [wbnb, token];
  const hash = await wallet.writeContract({
    address: settings.contracts.positionManager as Address,
    abi: NonfungiblePositionManager.abi,
    functionName: 'createAndInitializePoolIfNecessary',
    args: [token0, token1, 10000, getSqrtRatioAtTick(first.body.opening.tick + 200)],
  });
  expect((await api.client.getTransactionReceipt({ hash })).status).toBe('success');

  // Building again draws the same salt first, sees its pool priced, and moves on to a fresh one (cheaper than a
  // takeover, and no bids of anyone's to meet).
  const second = await api.post('/build/launch', request);
  expect(second.status, JSON.stringify(second.body)).toBe(200);
  expect(second.body.salt).toBe(salts[2]);
  expect(second.body.token).not.toBe(token);
  expect(second.body.simulation).toEqual({ ran: true, ok: true });
  await api.signAndSend(2, second.body.tx);

  // The launch built before the attack still lands, within the gas its build set: the factory moved the attacker's
  // price back to the opening price.
  const landed = await api.signAndSend(2, first.body.tx);
  expect(landed.status).toBe('success');
  const pool = await api.client.readContract({
    address: settings.contracts.pancakeFactory as Address,
    abi: PancakeV3Factory.abi,
    functionName: 'getPool',
    args: [token, wbnb, 10000],
  });
  const [sqrtPriceX96] = await api.client.readContract({
    address: pool,
    abi: PancakeV3Pool.abi,
    functionName: 'slot0',
  });
  // `opening.tick` is the pool's tick, as the factory takes it.
  expect(sqrtPriceX96).toBe(getSqrtRatioAtTick(first.body.opening.tick));
});
