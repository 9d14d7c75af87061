import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Address,
  erc20Abi,
  getAddress,
  type Hex,
  isAddressEqual,
  parseEventLogs,
  type TransactionReceipt,
} from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestAccount, testAccounts } from '../src-main/chain/devnet/testAccounts';
import { passphraseCipher } from '../src-main/signer/localKey/keyCipher';
import type { ActivityEntry } from '../src-shared/appChannelTypes';
import { tradeRouterAbi } from '../src-shared/generated/abis';
import { pngBytes } from './support/pngImage';
import { startTradingFixture, type TradingFixture } from './support/tradingFixture';

const TOKEN = 'test-app-token-activity-moved-0001';
const USER = testAccounts()[13] as TestAccount;
const OTHER = testAccounts()[14] as TestAccount;

let f: TradingFixture;

beforeAll(async () => {
  f = await startTradingFixture({
    // The review's ticks confirm main's warnings here: one launch splits its first buy to other wallets.
    allowWarnedSigning: true,
    appToken: TOKEN,
    // A cheap scrypt cost: the keystore is the same, only its work factor is lower.
    keyCipher: passphraseCipher({ n: 2 ** 12, r: 8, p: 1 }),
    settingsFile: join(mkdtempSync(join(tmpdir(), 'companion-settings-')), 'app-settings.json'),
  });
  await app('signer.importKey', { privateKey: USER.privateKey, passphrase: 'correct horse battery' });
});
afterAll(async () => {
  await f?.service.dispose();
});

async function app<T>(operation: string, input: unknown = {}): Promise<T> {
  const response = await fetch(`${f.service.origin}/app/${operation}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify(input),
  });
  const body = (await response.json()) as { result?: T; error?: unknown };
  if (response.status !== 200) throw new Error(`${operation}: ${JSON.stringify(body.error)}`);
  return body.result as T;
}

interface Built {
  tx: Record<string, unknown>;
  explain: string;
  requires: { step: string; explain: string; tx: Record<string, unknown> }[];
}

async function build(side: 'buy' | 'sell', amount: string): Promise<Built> {
  const response = await fetch(`${f.service.url}/build/${side}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ wallet: USER.address, token: f.bnbToken.token, amount }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Built;
}

/** Prepares, signs and sends one transaction through the app channel as the review does, and waits for its receipt. */
async function send(tx: Record<string, unknown>, step: string, kind: string, title: string) {
  const prepared = await app<{ id: string; warnings: { id: string }[] }>('tx.prepare', { tx });
  // The person confirms what main warns about (a first buy split to other wallets), as on the review.
  const confirmedWarnings = prepared.warnings.map((warning) => warning.id);
  const sent = await app<{ id: string; hash: Hex }>('tx.send', {
    tx,
    prepared: prepared.id,
    confirmedWarnings,
    step,
    kind,
    title,
  });
  const settled = await app<ActivityEntry>('tx.wait', { id: sent.id });
  expect(settled.status).toBe('confirmed');
  const receipt = await f.client.getTransactionReceipt({ hash: sent.hash });
  const listed = (await app<ActivityEntry[]>('activity.list', {})).find((entry) => entry.id === sent.id);
  return { entry: listed as ActivityEntry, receipt };
}

/** The token's Transfer logs of a receipt to or from the wallet, summed. */
function transferred(receipt: TransactionReceipt, token: Address, direction: 'to' | 'from'): bigint {
  return parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt.logs })
    .filter((log) => isAddressEqual(log.address, token) && isAddressEqual(log.args[direction], USER.address))
    .reduce((sum, log) => sum + log.args.value, 0n);
}

const feeOf = (receipt: TransactionReceipt) => receipt.gasUsed * receipt.effectiveGasPrice;

describe('Activity keeps what arrived, read from the receipt', () => {
  it('a BNB buy: the tokens its Transfer logs gave the wallet, and the BNB the router took', async () => {
    const buy = await build('buy', '0.3');
    expect(buy.requires).toEqual([]);
    const { entry, receipt } = await send(buy.tx, 'main', 'buy', buy.explain);
    const arrived = transferred(receipt, f.bnbToken.token, 'to');
    expect(arrived).toBeGreaterThan(0n);
    expect(entry.moved?.received).toEqual([{ currency: f.bnbToken.token, wei: arrived.toString() }]);
    // More than the build's floor, usually: the list shows this, not the floor.
    const [trade] = parseEventLogs({ abi: tradeRouterAbi, eventName: 'Trade', logs: receipt.logs });
    expect(trade?.args.tokenAmount).toBe(arrived);
    expect(entry.moved?.paid).toEqual([{ currency: 'BNB', wei: trade?.args.pairAmount.toString() }]);
    expect(await balanceAt(f.bnbToken.token, receipt.blockNumber)).toBe(
      (await balanceAt(f.bnbToken.token, receipt.blockNumber - 1n)) + arrived,
    );
  });

  it('a BNB sale: the BNB that reached the wallet, to the wei, and the tokens its Transfer logs took', async () => {
    const first = await build('sell', '1000');
    for (const step of first.requires) await send(step.tx, step.step, 'approve', step.explain);
    const sell = await build('sell', '1000');
    expect(sell.requires).toEqual([]);
    const { entry, receipt } = await send(sell.tx, 'main', 'sell', sell.explain);
    const before = await f.client.getBalance({ address: USER.address, blockNumber: receipt.blockNumber - 1n });
    const after = await f.client.getBalance({ address: USER.address, blockNumber: receipt.blockNumber });
    // The wallet's BNB moved by what the sale paid it, less the network fee it paid itself.
    const bnbArrived = after - before + feeOf(receipt);
    expect(bnbArrived).toBeGreaterThan(0n);
    expect(entry.moved?.received).toEqual([{ currency: 'BNB', wei: bnbArrived.toString() }]);
    const tokensOut = transferred(receipt, f.bnbToken.token, 'from');
    expect(tokensOut).toBe(10n ** 21n);
    expect(entry.moved?.paid).toEqual([{ currency: f.bnbToken.token, wei: tokensOut.toString() }]);
  });

  it('a launch whose first buy is split: only the signer’s own share arrived, as its Transfer log says', async () => {
    const images = createServer((_, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(pngBytes(4));
    });
    await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
    try {
      const response = await fetch(`${f.service.url}/build/launch`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          wallet: USER.address,
          name: 'Split Moved',
          symbol: 'SPMV',
          marketCapPair: '10',
          image: `http://127.0.0.1:${(images.address() as AddressInfo).port}/logo.png`,
          firstBuy: '0.2',
          firstBuyTo: [
            { wallet: OTHER.address, pct: 70 },
            { wallet: USER.address, pct: 30 },
          ],
        }),
      });
      const launch = (await response.json()) as Built & { token: Address };
      expect(response.status).toBe(200);
      for (const step of launch.requires) await send(step.tx, step.step, 'approve', step.explain);
      const { entry, receipt } = await send(launch.tx, 'main', 'launch', 'Launch Split Moved');
      const mine = transferred(receipt, launch.token, 'to');
      const theirs = parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt.logs })
        .filter((log) => isAddressEqual(log.address, launch.token) && isAddressEqual(log.args.to, OTHER.address))
        .reduce((sum, log) => sum + log.args.value, 0n);
      expect(mine).toBeGreaterThan(0n);
      expect(theirs).toBeGreaterThan(mine);
      expect(entry.moved?.received).toEqual([{ currency: getAddress(launch.token), wei: mine.toString() }]);
      expect(entry.moved?.paid).toEqual([]);
    } finally {
      images.close();
    }
  });

  it('keeps nothing for an approval that moved no tokens to the wallet', async () => {
    const approvals = (await app<ActivityEntry[]>('activity.list', {})).filter((entry) => entry.kind === 'approve');
    expect(approvals.length).toBeGreaterThan(0);
    for (const approval of approvals) expect(approval.moved).toEqual({ received: [], paid: [] });
  });
});

function balanceAt(token: Address, blockNumber: bigint): Promise<bigint> {
  return f.client.readContract({
    address: token,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [USER.address],
    blockNumber,
  });
}
