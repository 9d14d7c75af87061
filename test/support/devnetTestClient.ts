import { createTestClient, custom } from 'viem';
import type { Devnet } from '../../src-main/chain/devnet/startDevnet';

/**
 * viem's test actions (snapshot, revert, mine, increaseTime, setBalance, setCode) on the devnet's EVM, typed, in
 * place of hand-made requests cast to `never`. They go straight to the EVM, past the devnet's journal: blocks mined
 * here are not replayed after a restart, so a test that needs that mines through the devnet or its `/rpc` instead.
 */
export function devnetTestClient(devnet: Pick<Devnet, 'provider'>) {
  return createTestClient({ mode: 'hardhat', transport: custom(devnet.provider) });
}

export type DevnetTestClient = ReturnType<typeof devnetTestClient>;
