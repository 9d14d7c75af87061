import {
  type Address,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  maxUint160,
  maxUint256,
  parseGwei,
  zeroAddress,
} from 'viem';
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import type { Devnet } from '../src-main/chain/devnet/startDevnet';
import { IPermit2, TradeRouter } from '../src-main/chain/generated/contracts';
import { silentLogger } from '../src-main/log/createLogger';
import { type RunningService, startService } from '../src-main/startService';

/** The bsc-cadence benchmark's load: test accounts that sign locally, with explicit gas and their own nonces. */

/** BSC's block time, at which the cadence benches run the devnet. */
export const BSC_BLOCK_MS = 750;

/**
 * The headless service in this process on a devnet making a block every BSC_BLOCK_MS, unseeded and without rate
 * limits, with `confirmations` when given; throws if it runs no devnet at that cadence.
 */
export async function startAtBscCadence(
  dataDir: string,
  confirmations?: number,
): Promise<{ service: RunningService; devnet: Devnet }> {
  const service = await startService({
    port: 0,
    dataDir,
    network: 'devnet',
    seed: false,
    rateLimits: false,
    blockTimeMs: BSC_BLOCK_MS,
    ...(confirmations === undefined ? {} : { confirmations }),
    // The launches' metadata links point nowhere; looking them up is not what is measured.
    thirdPartyFetches: false,
    logger: silentLogger(),
  });
  const devnet = service.chain.devnet;
  if (!devnet || devnet.blockTimeMs !== BSC_BLOCK_MS) {
    await service.close();
    throw new Error(`the service runs no devnet at ${BSC_BLOCK_MS} ms blocks`);
  }
  return { service, devnet };
}

/** The priority fee every transaction of the load bids (BSC's usual 0.1 gwei). */
export const TIP_WEI = parseGwei('0.1');
/** Gas given to one swap through the TradeRouter: a first trade costs about 222k, later ones under 180k. */
export const SWAP_GAS = 400_000n;
/** Gas given to an approval (ERC-20 or Permit2). */
export const APPROVE_GAS = 120_000n;
/** The fee tier launches use (1%). */
export const LAUNCH_FEE = 10_000;
const FAR_DEADLINE = 2n ** 40n;
const PERMIT2_FAR_EXPIRATION = 2 ** 40;

/** One JSON-RPC endpoint: the service's /rpc, asked over HTTP as a bot would. */
export interface RpcEndpoint {
  call<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  /** A JSON-RPC batch (at most 100 requests); the answers in order, each a result or the node's error message. */
  batch(
    requests: readonly { method: string; params: unknown[] }[],
  ): Promise<({ result: unknown } | { error: string })[]>;
}

export function rpcEndpoint(url: string): RpcEndpoint {
  let nextId = 1;
  const post = async (body: unknown) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
    return response.json();
  };
  return {
    async call<T>(method: string, params: unknown[] = []): Promise<T> {
      const answer = (await post({ jsonrpc: '2.0', id: nextId++, method, params })) as {
        result?: T;
        error?: { message: string };
      };
      if (answer.error) throw new Error(`${method}: ${answer.error.message}`);
      return answer.result as T;
    },
    async batch(requests) {
      const answers = (await post(
        requests.map((request) => ({ jsonrpc: '2.0', id: nextId++, method: request.method, params: request.params })),
      )) as { result?: unknown; error?: { message: string } }[];
      return answers.map((answer) => (answer.error ? { error: answer.error.message } : { result: answer.result }));
    },
  };
}

/** What one signed transaction does. */
export interface Call {
  to: Address;
  data: Hex;
  value?: bigint;
  gas: bigint;
}

/** A test account that signs locally at nonces it counts itself, so it can have many transactions in one block. */
export class LocalSigner {
  readonly account: PrivateKeyAccount;
  private nonce: number | undefined;

  constructor(
    privateKey: Hex,
    private readonly chainId: number,
  ) {
    this.account = privateKeyToAccount(privateKey);
  }

  get address(): Address {
    return this.account.address;
  }

  /** Reads the next nonce from the node (the pending count: what waits in the mempool included). */
  async sync(rpc: RpcEndpoint): Promise<void> {
    this.nonce = Number(await rpc.call<Hex>('eth_getTransactionCount', [this.address, 'pending']));
  }

  /** Signs `call` at the next nonce; nothing is sent. */
  async sign(call: Call, maxFeePerGas: bigint): Promise<Hex> {
    if (this.nonce === undefined) throw new Error(`the nonce of ${this.address} was not read`);
    const nonce = this.nonce++;
    return this.account.signTransaction({
      chainId: this.chainId,
      type: 'eip1559',
      to: call.to,
      data: call.data,
      value: call.value ?? 0n,
      gas: call.gas,
      nonce,
      maxFeePerGas,
      maxPriorityFeePerGas: TIP_WEI,
    });
  }
}

/** The contracts a swap goes through. */
export interface SwapContracts {
  router: Address;
  permit2: Address;
  wbnb: Address;
}

function tradeParams(token: Address, wbnb: Address, amount: bigint) {
  return {
    token,
    pair: wbnb,
    fee: LAUNCH_FEE,
    amount,
    limit: 0n,
    referrer: zeroAddress,
    deadline: FAR_DEADLINE,
  };
}

/** Buys `token` for exactly `wei` of BNB, whatever the price (limit 0: the load must not revert on slippage). */
export function buyCall(contracts: SwapContracts, token: Address, wei: bigint): Call {
  return {
    to: contracts.router,
    data: encodeFunctionData({
      abi: TradeRouter.abi,
      functionName: 'buyExactIn',
      args: [tradeParams(token, contracts.wbnb, wei)],
    }),
    value: wei,
    gas: SWAP_GAS,
  };
}

/** Sells exactly `tokens` of `token` for BNB, whatever the price; the router pulls them through Permit2. */
export function sellCall(contracts: SwapContracts, token: Address, tokens: bigint): Call {
  return {
    to: contracts.router,
    data: encodeFunctionData({
      abi: TradeRouter.abi,
      functionName: 'sellExactIn',
      args: [tradeParams(token, contracts.wbnb, tokens)],
    }),
    gas: SWAP_GAS,
  };
}

/** The two approvals a sale needs once per token: the token to Permit2, and Permit2 to the router. */
export function allowRouterCalls(contracts: SwapContracts, token: Address): Call[] {
  return [
    {
      to: token,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [contracts.permit2, maxUint256] }),
      gas: APPROVE_GAS,
    },
    {
      to: contracts.permit2,
      data: encodeFunctionData({
        abi: IPermit2.abi,
        functionName: 'approve',
        args: [token, contracts.router, maxUint160, PERMIT2_FAR_EXPIRATION],
      }),
      gas: APPROVE_GAS,
    },
  ];
}
