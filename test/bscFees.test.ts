import { createPublicClient, createWalletClient, type Hex, http, type PublicClient, parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestAccount, testAccounts } from '../src-main/chain/devnet/testAccounts';
import { devnetChain } from '../src-main/chain/networks';
import { BSC_MIN_GAS_PRICE_WEI } from '../src-main/chain/readFees';
import { passphraseCipher } from '../src-main/signer/localKey/keyCipher';
import { startTestService, type TestService } from './support/startTestService';

/* The devnet with BSC's fee settings (base fee 0, a minimum gas price), and the service's fees on it. */
const TOKEN = 'test-app-token-bsc-fees-0123456789';
const USER = testAccounts()[7] as TestAccount;
let service: TestService;
let client: PublicClient;
let token: Hex;

beforeAll(async () => {
  service = await startTestService(undefined, {
    bscFees: true,
    seed: true,
    appToken: TOKEN,
    keyCipher: passphraseCipher({ n: 2 ** 12, r: 8, p: 1 }),
  });
  await service.seeded;
  client = createPublicClient({ chain: devnetChain, transport: http(`${service.origin}/rpc`) }) as PublicClient;
  const { launches } = (await (await fetch(`${service.url}/launches`)).json()) as {
    launches: { token: Hex; pair: string }[];
  };
  const bnbLaunch = launches.find((l) => l.pair === service.chain.addresses.wbnb);
  if (!bnbLaunch) throw new Error('the seed has no BNB launch');
  token = bnbLaunch.token;
}, 120_000);
afterAll(async () => {
  await service?.dispose();
});

async function app<T>(operation: string, input: unknown = {}): Promise<T> {
  const response = await fetch(`${service.origin}/app/${operation}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify(input),
  });
  const reply = (await response.json()) as { result?: T; error?: unknown };
  if (response.status !== 200) throw new Error(`${operation}: ${JSON.stringify(reply.error)}`);
  return reply.result as T;
}

const buildBuy = async () =>
  (await (
    await fetch(`${service.url}/build/buy`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ wallet: USER.address, token, amount: '0.01' }),
    })
  ).json()) as { tx: Record<string, unknown>; explain: string; cost: { gasPriceWei: string } };

describe('the devnet with BSC fees', () => {
  it('keeps the base fee at 0, and its node suggests the minimum gas price', async () => {
    const block = await client.getBlock();
    // The seed made blocks with transactions: the base fee stayed 0.
    expect(block.number).toBeGreaterThan(20n);
    expect(block.baseFeePerGas).toBe(0n);
    expect(await client.getGasPrice()).toBe(BSC_MIN_GAS_PRICE_WEI);
    expect(BigInt(await client.request({ method: 'eth_maxPriorityFeePerGas' }))).toBe(BSC_MIN_GAS_PRICE_WEI);
  });

  it('refuses a transaction under the minimum gas price, as BSC validators do', async () => {
    const account = privateKeyToAccount(testAccounts()[11]?.privateKey as Hex);
    const wallet = createWalletClient({ account, chain: devnetChain, transport: http(`${service.origin}/rpc`) });
    const nonce = await client.getTransactionCount({ address: account.address });
    const under = BSC_MIN_GAS_PRICE_WEI - 1n;
    for (const fees of [
      { maxFeePerGas: under, maxPriorityFeePerGas: under },
      { maxFeePerGas: parseEther('0.000001'), maxPriorityFeePerGas: under },
      { gasPrice: under },
    ]) {
      const raw = await wallet.signTransaction({
        to: USER.address,
        value: 1n,
        gas: 21_000n,
        nonce,
        ...fees,
      } as never);
      const answer = (await (
        await fetch(`${service.origin}/rpc`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransaction', params: [raw] }),
        })
      ).json()) as { error?: { code: number; message: string } };
      expect(answer.error?.code).toBe(-32000);
      expect(answer.error?.message).toMatch(/^transaction underpriced/);
    }
    expect(await client.getTransactionCount({ address: account.address })).toBe(nonce);
  });

  it("has the app's sender pay exactly the minimum, accepted and mined, and the builds' cost priced at it", async () => {
    const build = await buildBuy();
    expect(build.cost.gasPriceWei).toBe(BSC_MIN_GAS_PRICE_WEI.toString());
    await app('signer.importKey', { privateKey: USER.privateKey, passphrase: 'correct horse battery' });
    const prepared = await app<{ id: string; tx: { maxFeePerGas: string; maxPriorityFeePerGas: string } }>(
      'tx.prepare',
      { tx: build.tx },
    );
    expect(prepared.tx.maxPriorityFeePerGas).toBe(BSC_MIN_GAS_PRICE_WEI.toString());
    expect(prepared.tx.maxFeePerGas).toBe(BSC_MIN_GAS_PRICE_WEI.toString());
    const sent = await app<{ id: string; hash: Hex }>('tx.send', {
      tx: build.tx,
      prepared: prepared.id,
      step: 'main',
      kind: 'buy',
      title: build.explain,
    });
    expect((await app<{ status: string }>('tx.wait', { id: sent.id })).status).toBe('confirmed');
    const receipt = await client.getTransactionReceipt({ hash: sent.hash });
    expect(receipt.effectiveGasPrice).toBe(BSC_MIN_GAS_PRICE_WEI);
  });
});
