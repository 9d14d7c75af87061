import { performance } from 'node:perf_hooks';
import { type Address, createWalletClient, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { testAccounts } from '../src-main/chain/devnet/testAccounts';
import { devnetChain } from '../src-main/chain/networks';
import type { Benchmark, Row } from './benchmark';
import { type BenchServer, withServer } from './server';
import { percentile } from './stats';

/** A 1x1 PNG, uploaded once so builds use a logo from the server's own store (no image fetch). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * Issue 5's figures against the real server in its own process: POST /build/launch latency (simulation included,
 * no image fetch) and the gas a launch of each shape preset uses on the chain.
 */
export const launchBench: Benchmark = {
  id: 'launch',
  run: () => withServer('bench-launch', measure),
};

async function measure({ url, transport, client }: BenchServer): Promise<Row[]> {
  const upload = await fetch(`${url}/media/image`, {
    method: 'POST',
    body: PNG,
    headers: { 'content-type': 'image/png' },
  });
  const image = ((await upload.json()) as { url: string }).url;
  const creator = testAccounts()[2];
  if (!creator) throw new Error('no test account 2');
  const body = (shape: string, name: string) => ({
    wallet: creator.address,
    name,
    symbol: name.slice(0, 6).toUpperCase(),
    marketCapPair: '20',
    image,
    shape,
  });
  const times: number[] = [];
  for (let i = 0; i < 100; i++) {
    const started = performance.now();
    const answer = await fetch(`${url}/build/launch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body('flat', `Bench ${i}`)),
    });
    await answer.json();
    if (answer.status !== 200) throw new Error(`build answered ${answer.status}`);
    times.push(performance.now() - started);
  }
  const rows: Row[] = [
    {
      name: 'POST /build/launch p50 (no image fetch)',
      value: round(percentile(times, 50)),
      unit: 'ms',
      target: { op: '<', value: 60 },
    },
    { name: 'POST /build/launch p99', value: round(percentile(times, 99)), unit: 'ms' },
  ];
  const wallet = createWalletClient({
    account: privateKeyToAccount(creator.privateKey),
    chain: devnetChain,
    transport,
  });
  for (const shape of ['flat', 'stepped', 'steep']) {
    const answer = (await (
      await fetch(`${url}/build/launch`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body(shape, shape)),
      })
    ).json()) as {
      tx: { to: Address; data: Hex; value: string; gas: string };
    };
    const hash = await wallet.sendTransaction({
      to: answer.tx.to,
      data: answer.tx.data,
      value: BigInt(answer.tx.value),
      gas: BigInt(answer.tx.gas),
    });
    const receipt = await client.getTransactionReceipt({ hash });
    rows.push({ name: `launch gas, ${shape} shape, no first buy`, value: Number(receipt.gasUsed), unit: 'gas' });
  }
  return rows;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
