import {
  type Address,
  createPublicClient,
  defineChain,
  formatUnits,
  type Hex,
  http,
  type PublicClient,
  parseGwei,
  type TransactionReceipt,
} from 'viem';
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { testAccounts } from '../../src-main/chain/devnet/testAccounts';
import type { PoolState } from '../../src-main/core/swap/poolState';
import type { SwapResult } from '../../src-main/core/swap/simulateSwap';
import { readPoolAtOnce } from '../../src-main/services/poolStateService';

/** What a rehearsal's wallet sends: a call or a transfer, with the priority fee it bids for its place in the block. */
export interface Send {
  to: Address;
  data?: Hex;
  value?: bigint;
  gas?: bigint;
  /** The priority fee per gas it bids (default 0.1 gwei); builders order a block by it, then by arrival. */
  tipWei?: bigint;
  /** Sends at this nonce (a replacement) instead of the next one. */
  nonce?: number;
  /** The fee cap per gas; by default twice the latest base fee plus the tip (one read of the latest block). */
  maxFeePerGas?: bigint;
}

/** The node a rehearsal's bots and adversaries talk to: a devnet's or a fork's `/rpc`, nothing more. */
export interface RehearsalNode {
  url: string;
  chainId: number;
  client: PublicClient;
  /** The lowest priority fee the node takes (BSC's validators' minimum), once a refusal named it. */
  minimumTipWei?: bigint;
  /** One JSON-RPC call, answered or thrown as the node's error message. */
  call<T = unknown>(method: string, params?: unknown[]): Promise<T>;
}

/** Chain ids a rehearsal tool never runs against: BSC mainnet and testnet. */
export const REAL_CHAINS = new Set([56, 97]);

/** Connects to a rehearsal's node, refusing BSC itself (56, 97): these tools send as public test accounts. */
export async function rehearsalNode(url: string): Promise<RehearsalNode> {
  let nextId = 1;
  const call = async <T>(method: string, params: unknown[] = []): Promise<T> => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
    });
    const answer = (await response.json()) as { result?: T; error?: { message: string } };
    if (answer.error) throw new Error(answer.error.message);
    return answer.result as T;
  };
  const chainId = Number(await call<Hex>('eth_chainId'));
  if (REAL_CHAINS.has(chainId)) {
    throw new Error(`${url} serves chain ${chainId}, BNB Chain itself: rehearsal tools run on a devnet or a fork only`);
  }
  const chain = defineChain({
    id: chainId,
    name: `rehearsal ${chainId}`,
    nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  });
  const client = createPublicClient({ chain, transport: http(url), pollingInterval: 100 }) as PublicClient;
  return { url, chainId, client, call };
}

/** The latest block's base fee per gas (0 where the chain has none). */
export async function latestBaseFee(node: RehearsalNode): Promise<bigint> {
  const block = await node.call<{ baseFeePerGas?: Hex }>('eth_getBlockByNumber', ['latest', false]);
  return BigInt(block.baseFeePerGas ?? '0x0');
}

/** A test account that signs locally and sends through the node, keeping its own nonce so it can send many per block. */
export class RpcWallet {
  readonly account: PrivateKeyAccount;
  private nonce: number | undefined;
  /** Sends one at a time, so concurrent sends take consecutive nonces and reach the node in nonce order. */
  private queue: Promise<unknown> = Promise.resolve();
  /** Wei paid in gas by what this wallet sent and saw mined. */
  gasSpentWei = 0n;

  constructor(
    private readonly node: RehearsalNode,
    privateKey: Hex,
  ) {
    this.account = privateKeyToAccount(privateKey);
  }

  get address(): Address {
    return this.account.address;
  }

  /**
   * Signs and sends; returns the hash once the node took it into its mempool (or mined it, on an instant devnet).
   * Concurrent sends are taken one at a time, in call order.
   */
  send(tx: Send): Promise<{ hash: Hex; nonce: number; maxFeePerGas: bigint; tipWei: bigint }> {
    const sent = this.queue.then(() => this.sendNow(tx));
    this.queue = sent.catch(() => undefined);
    return sent;
  }

  private async sendNow(tx: Send): Promise<{ hash: Hex; nonce: number; maxFeePerGas: bigint; tipWei: bigint }> {
    try {
      return await this.signAndSend(tx);
    } catch (error) {
      // BSC's validators refuse a tip under their minimum (0.05 gwei): a bot bids the minimum instead, once learned.
      const minimum = /transaction underpriced: gas tip cap \d+, minimum needed (\d+)/.exec(String(error))?.[1];
      if (minimum === undefined || this.node.minimumTipWei !== undefined) throw error;
      this.node.minimumTipWei = BigInt(minimum);
      return this.signAndSend(tx);
    }
  }

  private async signAndSend(tx: Send): Promise<{ hash: Hex; nonce: number; maxFeePerGas: bigint; tipWei: bigint }> {
    const nonce = tx.nonce ?? (await this.nextNonce());
    const floor = this.node.minimumTipWei ?? 0n;
    const asked = tx.tipWei ?? parseGwei('0.1');
    const tipWei = asked > floor ? asked : floor;
    const askedMax = tx.maxFeePerGas ?? (await latestBaseFee(this.node)) * 2n + tipWei;
    const maxFeePerGas = askedMax > tipWei ? askedMax : tipWei;
    const raw = await this.account.signTransaction({
      chainId: this.node.chainId,
      to: tx.to,
      data: tx.data ?? '0x',
      value: tx.value ?? 0n,
      gas: tx.gas ?? (await this.estimate(tx)),
      nonce,
      maxFeePerGas,
      maxPriorityFeePerGas: tipWei,
    });
    try {
      const hash = await this.node.call<Hex>('eth_sendRawTransaction', [raw]);
      if (tx.nonce === undefined) this.nonce = nonce + 1;
      return { hash, nonce, maxFeePerGas, tipWei };
    } catch (error) {
      // A refused transaction leaves the nonce unused: read it again next time.
      if (tx.nonce === undefined) this.nonce = undefined;
      throw error;
    }
  }

  /** Waits for the transaction's receipt and counts its gas; null when it left the mempool unmined (replaced). */
  async receipt(hash: Hex, timeoutMs = 60_000): Promise<TransactionReceipt | null> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const receipt = await this.node.client.getTransactionReceipt({ hash }).catch(() => null);
      if (receipt) {
        if (receipt.from.toLowerCase() === this.address.toLowerCase()) {
          this.gasSpentWei += receipt.gasUsed * receipt.effectiveGasPrice;
        }
        return receipt;
      }
      const known = await this.node.call('eth_getTransactionByHash', [hash]);
      if (!known || Date.now() > deadline) return null;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Sends and waits for its receipt. */
  async sendAndWait(tx: Send): Promise<TransactionReceipt> {
    const { hash } = await this.send(tx);
    const receipt = await this.receipt(hash);
    if (!receipt) throw new Error(`transaction ${hash} of ${this.address} left the mempool unmined`);
    return receipt;
  }

  /** Forgets the nonce it counted (after another program sent from the same account, or a dropped transaction). */
  resync(): void {
    this.nonce = undefined;
  }

  private async nextNonce(): Promise<number> {
    this.nonce ??= Number(await this.node.call<Hex>('eth_getTransactionCount', [this.address, 'pending']));
    return this.nonce;
  }

  private async estimate(tx: Send): Promise<bigint> {
    const gas = await this.node.call<Hex>('eth_estimateGas', [
      { from: this.address, to: tx.to, data: tx.data ?? '0x', value: `0x${(tx.value ?? 0n).toString(16)}` },
      'pending',
    ]);
    return (BigInt(gas) * 13n) / 10n;
  }
}

/** The two addresses a rehearsal tool is given as one `--url`: the node's `/rpc` and the public API's `/api/v1`. */
export function rehearsalUrls(url: string): { rpcUrl: string; apiUrl: string } {
  const origin = url.replace(/\/+$/, '').replace(/\/(rpc|api\/v1)$/, '');
  return { rpcUrl: `${origin}/rpc`, apiUrl: `${origin}/api/v1` };
}

/** What a rehearsal tool reads of `GET /settings`: the contracts it calls and the site fee it pays. */
export interface RehearsalSettings {
  chainId: number;
  contracts: {
    factory: Address;
    router: Address;
    wbnb: Address;
    permit2: Address;
    quoter: Address;
    pancakeFactory: Address;
    swapRouter: Address;
    positionManager: Address;
  };
  siteFeeBps: number;
}

/** Reads the public API's settings, refusing BSC itself as `rehearsalNode` does. */
export async function readSettings(apiUrl: string): Promise<RehearsalSettings> {
  const response = await fetch(`${apiUrl}/settings`);
  if (!response.ok) throw new Error(`GET ${apiUrl}/settings answered ${response.status}`);
  const settings = (await response.json()) as {
    chainId: number;
    contracts: Record<string, Address | null>;
    fees: { siteFeeBps: number };
  };
  if (REAL_CHAINS.has(settings.chainId)) {
    throw new Error(`${apiUrl} serves chain ${settings.chainId}, BNB Chain itself: rehearsal tools never run there`);
  }
  const contract = (name: string): Address => {
    const address = settings.contracts[name];
    if (!address) throw new Error(`GET /settings names no ${name} contract`);
    return address;
  };
  return {
    chainId: settings.chainId,
    contracts: {
      factory: contract('factory'),
      router: contract('router'),
      wbnb: contract('wbnb'),
      permit2: contract('permit2'),
      quoter: contract('quoter'),
      pancakeFactory: contract('pancakeFactory'),
      swapRouter: contract('swapRouter'),
      positionManager: contract('positionManager'),
    },
    siteFeeBps: settings.fees.siteFeeBps,
  };
}

/** The private key of test account `index` (the devnet's public mnemonic: test BNB only). */
export function testKey(index: number): Hex {
  const account = testAccounts()[index];
  if (!account) throw new Error(`there is no test account ${index} (0-${testAccounts().length - 1})`);
  return account.privateKey;
}

/** The chain's clock: the latest block's timestamp, in seconds (deadlines are set from it, not the wall clock). */
export async function chainTime(node: RehearsalNode): Promise<bigint> {
  const block = await node.call<{ timestamp: Hex }>('eth_getBlockByNumber', ['latest', false]);
  return BigInt(block.timestamp);
}

/**
 * A PancakeSwap V3 pool's whole state (price, liquidity, every initialized tick) at the head, in one eth_call that
 * runs the PoolReader lens without deploying it (the service's own read): what a searcher simulates its swaps on.
 */
export async function readPoolState(node: RehearsalNode, pool: Address): Promise<PoolState> {
  return readPoolAtOnce(node.client, pool, await node.client.getBlockNumber({ cacheTime: 0 }));
}

/** A pool's state after a swap simulated on it (its ticks do not change). */
export function afterSwap(pool: PoolState, swap: SwapResult): PoolState {
  return { ...pool, sqrtPriceX96: swap.sqrtPriceX96After, tick: swap.tickAfter, liquidity: swap.liquidityAfter };
}

/** Wei as BNB with up to six decimals, for lines a person reads. */
export function bnb(wei: bigint): string {
  const negative = wei < 0n;
  // Rounded half up to a millionth of a BNB: formatUnits writes it without trailing zeros.
  const micro = ((negative ? -wei : wei) + 500_000_000_000n) / 1_000_000_000_000n;
  return `${negative && micro > 0n ? '-' : ''}${formatUnits(micro, 6)}`;
}

/** A small seeded random generator (mulberry32): the same seed, the same traffic. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `--name value` and `--flag` arguments, as a map (a flag without a value is "true"). */
export function parseArgs(argv: readonly string[]): Map<string, string> {
  const args = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!arg.startsWith('--')) throw new Error(`unexpected argument ${arg}`);
    const [name, inline] = arg.slice(2).split('=', 2) as [string, string | undefined];
    const next = argv[i + 1];
    if (inline !== undefined) args.set(name, inline);
    else if (next !== undefined && !next.startsWith('--')) {
      args.set(name, next);
      i++;
    } else args.set(name, 'true');
  }
  return args;
}
