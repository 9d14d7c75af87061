import { type Address, erc20Abi, formatUnits, type Hex, type TransactionReceipt } from 'viem';
import { expect } from 'vitest';
import { testAccounts } from '../../src-main/chain/devnet/testAccounts';
import { LaunchFactory } from '../../src-main/chain/generated/contracts';
import type { ApiClient } from './apiClient';
import { pngBytes } from './pngImage';
import type { TestService } from './startTestService';

/** Where the buy-back's burned tokens go. */
export const DEAD: Address = '0x000000000000000000000000000000000000dEaD';

const addressOf = (index: number) => testAccounts()[index]?.address as Address;

/** A launch made for the creator's dashboard: its token, the factory and the launch's receipt (its first buy). */
export interface CreatorLaunchFixture {
  factory: Address;
  token: Address;
  launchReceipt: TransactionReceipt;
  /** The token's balance of a wallet, at a block if given. */
  balanceOf(holder: Address, at?: bigint): Promise<bigint>;
  /** The factory's buybackPending for the token. */
  pending(): Promise<bigint>;
  /** Signs and sends with a devnet key, then waits for the indexer to have the block. */
  send(index: number, tx: { to: Address; data: Hex; value: string; gas?: string }): Promise<TransactionReceipt>;
}

/**
 * Launches a token from the `creator` account over the real API (a first buy split 70/30 with `sharer`, half the
 * royalty bought back and burned), has `trader` buy twice and sell a third of what it got so the locked positions
 * earn fees in both currencies, and lets the devnet's clock run 90 s on, so the buy-back's price guard (the pool's
 * average over the last minute) has the price at rest.
 */
export async function launchAndTrade(
  service: TestService,
  api: ApiClient,
  accounts: { creator: number; sharer: number; trader: number },
): Promise<CreatorLaunchFixture> {
  const factory = (await api.get('/settings')).body.contracts.factory as Address;
  const send = async (index: number, tx: { to: Address; data: Hex; value: string; gas?: string }) => {
    const receipt = await api.signAndSend(index, tx);
    await service.indexer.waitFor(receipt.blockNumber);
    return receipt;
  };
  const upload = await fetch(`${service.url}/media/image`, {
    method: 'POST',
    body: new Uint8Array(pngBytes(16)),
    headers: { 'content-type': 'image/png' },
  });
  const { url: image } = (await upload.json()) as { url: string };
  const launch = await api.post('/build/launch', {
    wallet: addressOf(accounts.creator),
    name: 'Royalty Cat',
    symbol: 'RCAT',
    marketCapPair: '30',
    firstBuy: '0.5',
    firstBuyTo: [
      { wallet: addressOf(accounts.creator), pct: 70 },
      { wallet: addressOf(accounts.sharer), pct: 30 },
    ],
    burnPct: 50,
    image,
  });
  expect(launch.status, JSON.stringify(launch.body)).toBe(200);
  const token = launch.body.token as Address;
  const launchReceipt = await send(accounts.creator, launch.body.tx);
  const balanceOf = (holder: Address, at?: bigint) =>
    api.client.readContract({
      address: token,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [holder],
      ...(at ? { blockNumber: at } : {}),
    });
  const trader = addressOf(accounts.trader);
  const trade = async (side: 'buy' | 'sell', amount: string) => {
    const built = await api.post(`/build/${side}`, { wallet: trader, token, amount });
    expect(built.status, JSON.stringify(built.body)).toBe(200);
    for (const step of built.body.requires) await send(accounts.trader, step.tx);
    const ready = built.body.requires.length
      ? await api.post(`/build/${side}`, { wallet: trader, token, amount })
      : built;
    return send(accounts.trader, ready.body.tx);
  };
  await trade('buy', '2');
  await trade('buy', '1.5');
  await trade('sell', formatUnits((await balanceOf(trader)) / 3n, 18));
  await service.chain.devnet?.increaseTime(90);
  const pending = () =>
    api.client.readContract({
      address: factory,
      abi: LaunchFactory.abi,
      functionName: 'buybackPending',
      args: [token],
    });
  return { factory, token, launchReceipt, balanceOf, pending, send };
}
