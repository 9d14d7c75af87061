import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Address, createWalletClient, type Hex, http, keccak256, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testAccounts } from '../src-main/chain/devnet/testAccounts';
import { NonfungiblePositionManager } from '../src-main/chain/generated/vendor';
import { devnetChain } from '../src-main/chain/networks';
import { getSqrtRatioAtTick } from '../src-main/core/math/tickMath';
import { revertOf } from '../src-main/services/simulation';
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

it('builds around a pool an attacker priced first, and the front-run launch fails before creating anything', async () => {
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

  // The launch built before the attack now fails, with the factory's own reason, and creates no token.
  const failed = await api.client
    .call({ account: creator, to: first.body.tx.to, data: first.body.tx.data, value: BigInt(first.body.tx.value) })
    .then(
      () => null,
      (error: unknown) => revertOf(error),
    );
  expect(failed?.name).toBe('PoolOccupied');
  expect(await api.client.getCode({ address: token })).toBeUndefined();
  // Building again draws the same salt first, sees its pool priced, and moves on to a fresh one.
  const second = await api.post('/build/launch', request);
  expect(second.status, JSON.stringify(second.body)).toBe(200);
  expect(second.body.salt).toBe(salts[2]);
  expect(second.body.token).not.toBe(token);
  expect(second.body.simulation).toEqual({ ran: true, ok: true });
  await api.signAndSend(2, second.body.tx);
});
