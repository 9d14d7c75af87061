import { type Address, createWalletClient, erc20Abi, getAddress, http, parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { expect } from 'vitest';
import { testAccounts } from '../../src-main/chain/devnet/testAccounts';
import { devnetChain } from '../../src-main/chain/networks';
import type { ServiceDrivers } from './serviceDrivers';

/**
 * What makes and moves a launched token between test accounts on a running devnet service, each sent through its /rpc
 * as a wallet would and expected to succeed: a launch by account 2 whose 2 BNB first buy is split among other
 * accounts, a plain ERC-20 transfer, and a router buy or sale (exact in, against WBNB).
 */
export function tokenMoves(service: { origin: string }, s: ServiceDrivers) {
  const accounts = testAccounts();
  return {
    /** Launches `symbol`, its first buy split among test accounts by [account, bps] (adding up to 10,000). */
    async launchSplit(saltSeed: string, symbol: string, split: [number, number][]) {
      const launched = await s.launcher.launch({
        creator: 2,
        saltSeed,
        name: `Held ${symbol}`,
        symbol,
        firstBuy: parseEther('2'),
        firstBuyTo: split.map(([account, bps]) => ({ wallet: getAddress(accounts[account]?.address ?? ''), bps })),
      });
      if (launched.result !== 'ok' || !launched.pool) throw new Error(`launch failed: ${launched.result}`);
      return { token: launched.token, pool: launched.pool };
    },
    async transfer(from: number, token: Address, to: Address, amount: bigint): Promise<void> {
      const account = privateKeyToAccount(accounts[from]?.privateKey ?? '0x');
      const wallet = createWalletClient({ account, chain: devnetChain, transport: http(`${service.origin}/rpc`) });
      const hash = await wallet.writeContract({
        address: token,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [to, amount],
      });
      expect((await s.api.client.getTransactionReceipt({ hash })).status).toBe('success');
    },
    async trade(index: number, side: 'buyExactIn' | 'sellExactIn', token: Address, pool: Address, amount: bigint) {
      const params = s.driver.params({ token, pair: s.contracts.wbnb as Address, pool }, amount, 0n);
      if (side === 'sellExactIn') await s.driver.allowRouter(index, token);
      const traded = await s.driver.trade(index, side, params, side === 'buyExactIn' ? amount : 0n);
      expect(traded.result).toBe('ok');
    },
  };
}
