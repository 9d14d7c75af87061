import {
  type Address,
  createPublicClient,
  defineChain,
  type Hex,
  http,
  type PublicClient,
  parseGwei,
  type TransactionReceipt,
} from 'viem';
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';

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
}

/** The node a rehearsal's bots and adversaries talk to: a devnet's or a fork's `/rpc`, nothing more. */
export interface RehearsalNode {
  url: string;
  chainId: number;
  client: PublicClient;
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

/** A test account that signs locally and sends through the node, keeping its own nonce so it can send many per block. */
export class RpcWallet {
  readonly account: PrivateKeyAccount;
  private nonce: number | undefined;
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

  /** Signs and sends; returns the hash once the node took it into its mempool (or mined it, on an instant devnet). */
  async send(tx: Send): Promise<{ hash: Hex; nonce: number; maxFeePerGas: bigint; tipWei: bigint }> {
    const nonce = tx.nonce ?? (await this.nextNonce());
    const tipWei = tx.tipWei ?? parseGwei('0.1');
    const base = BigInt(
      ((await this.node.call<{ baseFeePerGas?: Hex }>('eth_getBlockByNumber', ['latest', false])).baseFeePerGas ??
        '0x0') as Hex,
    );
    const maxFeePerGas = base * 2n + tipWei;
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
