import { type Address, createPublicClient, createWalletClient, type Hex, http, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { expect } from 'vitest';
import { testAccounts } from '../../src-main/chain/devnet/testAccounts';
import { devnetChain } from '../../src-main/chain/networks';

export interface Answer {
  status: number;
  /** Whatever JSON the API answered. */
  body: any;
}

/** What the HTTP tests do with a running service: call the API, and sign and send what it built through /rpc. */
export function apiClient(service: { url: string; origin: string }) {
  const transport = http(`${service.origin}/rpc`);
  const client = createPublicClient({ chain: devnetChain, transport }) as PublicClient;
  const answer = async (response: Response): Promise<Answer> => ({
    status: response.status,
    body: await response.json(),
  });
  return {
    client,
    get: async (path: string) => answer(await fetch(`${service.url}${path}`)),
    post: async (path: string, body: unknown) =>
      answer(
        await fetch(`${service.url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
      ),

    /** Signs an unsigned transaction with a test account, sends it through /rpc, and expects it to succeed. */
    async signAndSend(index: number, tx: { to: Address; data: Hex; value: string; gas?: string; chainId?: number }) {
      if (tx.chainId !== undefined) expect(tx.chainId).toBe(31337);
      const account = privateKeyToAccount(testAccounts()[index]?.privateKey ?? '0x');
      const wallet = createWalletClient({ account, chain: devnetChain, transport });
      const hash = await wallet.sendTransaction({
        to: tx.to,
        data: tx.data,
        value: BigInt(tx.value),
        ...(tx.gas ? { gas: BigInt(tx.gas) } : {}),
      });
      const receipt = await client.getTransactionReceipt({ hash });
      expect(receipt.status).toBe('success');
      return receipt;
    },
  };
}

export type ApiClient = ReturnType<typeof apiClient>;
