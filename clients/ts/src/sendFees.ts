import type { Block, PublicClient } from 'viem';

/**
 * The lowest tip BSC's validators take (0.05 gwei): its base fee is 0, so this is the whole price per gas, and a
 * transaction under it is refused ("transaction underpriced") or waits for ever. The devnet with `--bsc-fees` holds
 * the same floor.
 */
export const BSC_MIN_PRIORITY_FEE_WEI = 50_000_000n;

/** EIP-1559 fees to sign with. */
export interface SendFees {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

/** What the fees need of the chain's latest block. */
type BaseFee = { baseFeePerGas: bigint | null };

/** What the node says fees are made of now: its latest block, its gas price, and its suggested tip (0 if none). */
export interface FeeReads<B extends BaseFee = BaseFee> {
  latest: B;
  gasPrice: bigint;
  suggestedTip: bigint;
}

const largest = (...values: bigint[]) => values.reduce((a, b) => (a > b ? a : b));

function readFeeInputs<B extends BaseFee>(client: PublicClient, latest: B | Promise<B>): Promise<FeeReads<B>> {
  return Promise.all([
    latest,
    client.getGasPrice(),
    client
      .request({ method: 'eth_maxPriorityFeePerGas' })
      .then((answer) => BigInt(answer))
      .catch(() => 0n),
  ]).then(([block, gasPrice, suggestedTip]) => ({ latest: block, gasPrice, suggestedTip }));
}

const recentReads = new WeakMap<PublicClient, { at: number; reads: Promise<FeeReads<Block>> }>();

/**
 * The node's latest block, gas price and suggested tip, read once for every send through this client within
 * `maxAgeMs` (the chain's block time, so each block's sends share one read): thirty buys sent at one block ask the
 * node three times, not ninety. A failed read is not kept.
 *
 * @example const { latest } = await recentFeeReads(publicClient, 750);
 */
export function recentFeeReads(client: PublicClient, maxAgeMs: number): Promise<FeeReads<Block>> {
  const now = performance.now();
  const kept = recentReads.get(client);
  if (kept && now - kept.at <= maxAgeMs) return kept.reads;
  const reads = readFeeInputs(client, client.getBlock({ blockTag: 'latest' }));
  const entry = { at: now, reads };
  recentReads.set(client, entry);
  reads.catch(() => {
    if (recentReads.get(client) === entry) recentReads.delete(client);
  });
  return reads;
}

/**
 * The fees for a transaction sent now, as the service fills them for the app: the tip is the one asked for, else the
 * node's suggestion (eth_maxPriorityFeePerGas) or its legacy gas price above the base fee, whichever is higher, and
 * never under BSC's 0.05 gwei floor; the fee cap covers the latest base fee with 20% headroom plus the tip, and the
 * node's gas price. A tip asked under the floor is raised to it, since no BSC validator would take it.
 */
export function feesOf(reads: FeeReads, priorityFeeWei?: bigint): SendFees {
  const baseFee = reads.latest.baseFeePerGas ?? 0n;
  const maxPriorityFeePerGas = largest(
    priorityFeeWei ?? largest(reads.suggestedTip, reads.gasPrice - baseFee),
    BSC_MIN_PRIORITY_FEE_WEI,
  );
  const maxFeePerGas = largest((baseFee * 12n) / 10n + maxPriorityFeePerGas, reads.gasPrice);
  return { maxFeePerGas, maxPriorityFeePerGas };
}

/**
 * The fees for a transaction sent now (see feesOf), read from the node. `latest` is the chain's latest block when
 * the caller has it already.
 *
 * @example const fees = await sendFees(publicClient, { priorityFeeWei: 1_000_000_000n }); // a 1 gwei tip
 */
export async function sendFees(
  client: PublicClient,
  options: { priorityFeeWei?: bigint; latest?: BaseFee | Promise<BaseFee> } = {},
): Promise<SendFees> {
  const reads = await readFeeInputs(client, options.latest ?? client.getBlock({ blockTag: 'latest' }));
  return feesOf(reads, options.priorityFeeWei);
}
