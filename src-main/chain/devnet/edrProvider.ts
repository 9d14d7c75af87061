import {
  ContractDecoder,
  EdrContext,
  L1_CHAIN_TYPE,
  l1GenesisState,
  l1HardforkFromString,
  l1ProviderFactory,
  MineOrdering,
  type Provider,
} from '@nomicfoundation/edr';
import { type Address, BaseError, type EIP1193RequestFn, hexToBytes, toHex } from 'viem';

/**
 * A JSON-RPC error from the EVM, shaped as EIP-1193 asks (`code`, `message`, `data`). A viem `BaseError`, so viem
 * passes it on as it is: a plain Error would be wrapped as an unknown error and retried with back-off, turning every
 * revert into a second of waiting.
 */
export class RpcError extends BaseError {
  override name = 'RpcError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export interface EdrProviderOptions {
  chainId: number;
  /** Seconds since the Unix epoch of the genesis block; fixed so the devnet is the same on every start. */
  genesisTime: bigint;
  balances: readonly { address: Address; wei: bigint }[];
  /** Private keys the EVM may sign with for eth_sendTransaction (used by the devnet's own deployment only). */
  ownedKeys: readonly string[];
  blockGasLimit: bigint;
  /** The genesis base fee (1 gwei by default); BSC's is 0, and stays 0 while blocks are under half full. */
  initialBaseFeePerGas?: bigint;
  /** The lowest gas price the EVM mines (0 by default). */
  minGasPrice?: bigint;
  /** Forks the chain behind `url` at `blockNumber` instead of starting from an empty genesis (balances are then set). */
  fork?: ForkPoint;
  /**
   * Whether every transaction is mined at once in a block of its own (the default). Off, transactions wait in the
   * EVM's mempool, ordered by priority fee then arrival, until the devnet mines a block.
   */
  autoMine?: boolean;
  /**
   * Whether blocks may share a timestamp: BSC makes blocks faster than one a second, so at its cadence several blocks
   * share a second. Off by default, where the EVM, mining on its own, gives each block a second of its own.
   */
  sameSecondBlocks?: boolean;
}

/** Where a fork starts: the source's RPC, its chain id, and the block whose state the fork builds on. */
export interface ForkPoint {
  url: string;
  sourceChainId: number;
  blockNumber: bigint;
  /** A folder where the EVM keeps what it read from the source (without one it would write ./edr-cache). */
  cacheDir: string;
}

export interface EdrProvider {
  request: EIP1193RequestFn;
  /** Sends one JSON-RPC request object unchanged and returns the raw response object (for the /rpc passthrough). */
  raw(
    method: string,
    params: unknown[],
  ): Promise<{ result?: unknown; error?: { code: number; message: string; data?: unknown } }>;
}

// EDR allows one context per process; every provider in the process hangs off it.
let context: Promise<EdrContext> | undefined;

function edrContext(): Promise<EdrContext> {
  context ??= (async () => {
    const ctx = new EdrContext();
    await ctx.registerProviderFactory(L1_CHAIN_TYPE, l1ProviderFactory());
    return ctx;
  })();
  return context;
}

/**
 * Starts an in-process EVM (Hardhat's EDR, hardfork prague, automine) and wraps it as an EIP-1193 provider that
 * viem's `custom` transport accepts.
 */
export async function createEdrProvider(options: EdrProviderOptions): Promise<EdrProvider> {
  const ctx = await edrContext();
  // EDR 0.20 names hardforks with a capital (later releases take lower case): pinned, see package.json.
  const hardfork = 'Prague';
  const provider: Provider = await ctx.createProvider(
    L1_CHAIN_TYPE,
    {
      allowBlocksWithSameTimestamp: options.sameSecondBlocks ?? false,
      allowUnlimitedContractSize: false,
      // A reverting eth_call answers with an error carrying the revert data, as real nodes do (the simulator relies on it).
      bailOnCallFailure: true,
      bailOnTransactionFailure: false,
      chainId: BigInt(options.chainId),
      coinbase: hexToBytes('0x0000000000000000000000000000000000000000'),
      defaultTransactionGasLimit: 30_000_000n,
      // A fork keeps the source's state as it is (startDevnet sets the test accounts' balances on it); an empty chain
      // gets the hardfork's system contracts and the balances.
      genesisState: options.fork
        ? []
        : [
            ...l1GenesisState(l1HardforkFromString(hardfork)),
            ...options.balances.map(({ address, wei }) => ({ address: hexToBytes(address), balance: wei })),
          ],
      hardfork,
      initialBaseFeePerGas: options.initialBaseFeePerGas ?? 1_000_000_000n,
      minGasPrice: options.minGasPrice ?? 0n,
      mining: {
        autoMine: options.autoMine ?? true,
        blockGasLimit: options.blockGasLimit,
        // As BSC's builders order a block: by priority fee, then arrival (one sender's nonces in order).
        memPool: { order: MineOrdering.Priority },
      },
      network: options.fork
        ? {
            url: options.fork.url,
            blockNumber: options.fork.blockNumber,
            cacheDir: options.fork.cacheDir,
            // The source's blocks are read, never re-executed: its rules are declared to be today's.
            chainOverrides: [
              {
                chainId: BigInt(options.fork.sourceChainId),
                name: `chain ${options.fork.sourceChainId}`,
                hardforkActivationOverrides: [{ condition: { blockNumber: 0n }, hardfork }],
              },
            ],
          }
        : { genesisBlockGasLimit: options.blockGasLimit, genesisBlockTime: options.genesisTime },
      networkId: BigInt(options.chainId),
      observability: {},
      ownedAccounts: [...options.ownedKeys],
      precompileOverrides: [],
    },
    { enable: false, decodeConsoleLogInputsCallback: () => [], printLineCallback: () => {} },
    { subscriptionCallback: () => {} },
    new ContractDecoder(),
  );

  let nextId = 1;
  const raw: EdrProvider['raw'] = async (method, params) => {
    const response = await provider.handleRequest(JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }));
    const answer = typeof response.data === 'string' ? JSON.parse(response.data) : response.data;
    return answer.error ? { error: asNodeError(answer.error) } : answer;
  };
  const request = (async ({ method, params }: { method: string; params?: unknown }) => {
    const answer = await raw(method, Array.isArray(params) ? params : params === undefined ? [] : [params]);
    if (answer.error) throw new RpcError(answer.error.code, answer.error.message, answer.error.data);
    return answer.result;
  }) as EIP1193RequestFn;
  return { request, raw };
}

/**
 * EDR reports a revert as code -32000 with `data: { data: '0x…' }`; BSC's nodes (geth) answer code 3, "execution
 * reverted", with the revert data as a hex string, and that is what viem decodes custom errors from. The devnet
 * answers as the real chain does, for our simulator and for bots on /rpc alike.
 */
function asNodeError(error: { code: number; message: string; data?: unknown }) {
  const data = error.data as { data?: unknown } | undefined;
  if (typeof data === 'object' && data !== null && typeof data.data === 'string' && data.data.startsWith('0x')) {
    return { code: 3, message: error.message, data: data.data };
  }
  return error;
}

/** Fixes the timestamp of the next block the EVM mines (seconds since the Unix epoch). */
export async function setNextBlockTimestamp(provider: EdrProvider, seconds: bigint | number): Promise<void> {
  await provider.request({ method: 'evm_setNextBlockTimestamp', params: [toHex(seconds)] } as never);
}
