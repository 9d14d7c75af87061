import {
  type Address,
  createWalletClient,
  custom,
  erc20Abi,
  type Hash,
  type PublicClient,
  parseEventLogs,
  type Transport,
  zeroAddress,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { Devnet } from '../../src-main/chain/devnet/startDevnet';
import { IAllowanceTransfer, IPermit2, TradeRouter } from '../../src-main/chain/generated/contracts';
import { QuoterV2 } from '../../src-main/chain/generated/vendor';
import { devnetChain } from '../../src-main/chain/networks';
import { revertName } from './revertName';
import { POOL_FEE, type TokenPool } from './tokenPool';

// Permit2's errors are declared on IAllowanceTransfer (IPermit2's ABI does not repeat them).
export const routerAbi = [...TradeRouter.abi, ...IAllowanceTransfer.abi];

export interface TradeParams {
  token: Address;
  pair: Address;
  fee: number;
  amount: bigint;
  limit: bigint;
  referrer: Address;
  deadline: bigint;
}
export type Side = 'buyExactIn' | 'buyExactOut' | 'sellExactIn' | 'sellExactOut';

const FAR_DEADLINE = 2n ** 40n;

/** Where trades go: the devnet in-process, or a running service's /rpc. */
export interface RouterTarget {
  accounts: Devnet['accounts'];
  contracts: { router: Address; quoter: Address; permit2: Address };
  transport: Transport;
}

/** Drives the TradeRouter from the test accounts: the shared steps of the router tests, the HTTP tests and the bench. */
export function routerDriver(target: RouterTarget | Devnet, client: PublicClient) {
  const devnet: RouterTarget =
    'transport' in target
      ? target
      : { accounts: target.accounts, contracts: target.contracts, transport: custom(target.provider) };
  const account = (index: number) => privateKeyToAccount(devnet.accounts[index]?.privateKey ?? '0x');
  const wallet = (index: number) =>
    createWalletClient({ account: account(index), chain: devnetChain, transport: devnet.transport });

  return {
    account,
    wallet,

    params(pool: TokenPool, amount: bigint, limit: bigint, referrer: Address = zeroAddress): TradeParams {
      return { token: pool.token, pair: pool.pair, fee: POOL_FEE, amount, limit, referrer, deadline: FAR_DEADLINE };
    },

    /** Simulates then sends a trade; resolves to 'ok' with the transaction hash, or the custom error's name. */
    async trade(index: number, side: Side, p: TradeParams, value = 0n): Promise<{ result: string; hash?: Hash }> {
      let hash: Hash | undefined;
      const result = await revertName(
        (async () => {
          const { request } = await client.simulateContract({
            account: account(index),
            address: devnet.contracts.router,
            abi: routerAbi,
            functionName: side,
            args: [p],
            value,
          } as never);
          hash = await wallet(index).writeContract(request as never);
          const receipt = await client.getTransactionReceipt({ hash });
          if (receipt.status !== 'success') throw new Error(`${side} simulated fine but reverted on chain`);
        })(),
      );
      return { result, ...(hash ? { hash } : {}) };
    },

    balanceOf: (token: Address, who: Address) =>
      client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [who] }),

    /** BNB spent on gas by a transaction. */
    async gasCost(hash: Hash): Promise<bigint> {
      const receipt = await client.getTransactionReceipt({ hash });
      return receipt.gasUsed * receipt.effectiveGasPrice;
    },

    async gasUsed(hash: Hash | undefined): Promise<bigint> {
      if (!hash) throw new Error('the trade was not sent');
      return (await client.getTransactionReceipt({ hash })).gasUsed;
    },

    async tradeEvent(hash: Hash) {
      const receipt = await client.getTransactionReceipt({ hash });
      const [event] = parseEventLogs({ abi: TradeRouter.abi, logs: receipt.logs, eventName: 'Trade' });
      if (!event) throw new Error('no Trade event');
      return event.args;
    },

    async quoteExactIn(tokenIn: Address, tokenOut: Address, amountIn: bigint): Promise<bigint> {
      const { result } = await client.simulateContract({
        address: devnet.contracts.quoter,
        abi: QuoterV2.abi,
        functionName: 'quoteExactInputSingle',
        args: [{ tokenIn, tokenOut, amountIn, fee: POOL_FEE, sqrtPriceLimitX96: 0n }],
      });
      return result[0];
    },

    /** Lets the router pull `token` from the account through Permit2, until `expiration`. */
    async allowRouter(index: number, token: Address, expiration = Number(FAR_DEADLINE)) {
      await wallet(index).writeContract({
        address: token,
        abi: erc20Abi,
        functionName: 'approve',
        args: [devnet.contracts.permit2, 2n ** 256n - 1n],
      });
      await wallet(index).writeContract({
        address: devnet.contracts.permit2,
        abi: IPermit2.abi,
        functionName: 'approve',
        args: [token, devnet.contracts.router, 2n ** 160n - 1n, expiration],
      });
    },
  };
}

export type RouterDriver = ReturnType<typeof routerDriver>;
