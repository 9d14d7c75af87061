import type { Address, Hex } from 'viem';
import { expect } from 'vitest';
import { testAccounts } from '../../src-main/chain/devnet/testAccounts';
import type { ApiClient } from './apiClient';

/**
 * A trade as a bot makes it through the service: `POST /build/{side}` for test account `index`, its approval steps
 * signed and sent first (then built again), the trade sent through /rpc, and the indexer waited for, so the positions
 * and trades answers already hold it.
 */
export async function tradeThroughService(
  api: ApiClient,
  indexer: { waitFor(block: bigint | number): Promise<unknown> },
  index: number,
  token: Address,
  side: 'buy' | 'sell',
  amount: string,
) {
  const body = { wallet: testAccounts()[index]?.address, token, amount };
  let built = await api.post(`/build/${side}`, body);
  expect(built.status, JSON.stringify(built.body)).toBe(200);
  if (built.body.requires.length > 0) {
    for (const step of built.body.requires) await api.signAndSend(index, step.tx);
    built = await api.post(`/build/${side}`, body);
    expect(built.status, JSON.stringify(built.body)).toBe(200);
  }
  const receipt = await api.signAndSend(index, built.body.tx as { to: Address; data: Hex; value: string });
  await indexer.waitFor(receipt.blockNumber);
  return receipt;
}
