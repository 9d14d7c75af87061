import type { PublicClient } from 'viem';

/**
 * The lowest gas price BSC's validators mine (0.05 gwei since 2025, lowered from 0.1): a node's own suggestion may be
 * lower, and a transaction under it waits for ever. BSC's base fee is 0, so this is the whole price, paid as the tip.
 */
export const BSC_MIN_GAS_PRICE_WEI = 50_000_000n;

/** The least price per gas each network's block producers take, where one is known (BSC mainnet and testnet). */
const FLOOR_BY_CHAIN: Readonly<Record<number, bigint>> = { 56: BSC_MIN_GAS_PRICE_WEI, 97: BSC_MIN_GAS_PRICE_WEI };

/** EIP-1559 fees for a transaction; `maxFeePerGas` is also the most it can pay per gas, for cost ceilings. */
export interface Fees {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

const max = (...values: bigint[]) => values.reduce((a, b) => (a > b ? a : b));

/**
 * The fees to sign a transaction with now, never below what the node reports as needed: the tip is the node's
 * suggested tip (eth_maxPriorityFeePerGas, which some nodes lack), or its legacy gas price above the base fee
 * (eth_gasPrice, what nodes and wallets that prefer legacy pricing go by), or the network's known floor, whichever is
 * highest; the fee cap covers the latest base fee with 20% headroom plus the tip, and the legacy gas price. On BSC the
 * base fee is 0, so both come to the same price, at least 0.05 gwei. `latest` is the latest block when the caller
 * reads it anyway.
 *
 * @example const { maxFeePerGas, maxPriorityFeePerGas } = await readFees(client, 56)
 */
export async function readFees(
  client: PublicClient,
  chainId: number,
  latest?: Promise<{ baseFeePerGas: bigint | null }>,
): Promise<Fees> {
  const [block, gasPrice, tip] = await Promise.all([
    latest ?? client.getBlock({ blockTag: 'latest' }),
    client.getGasPrice(),
    client
      .request({ method: 'eth_maxPriorityFeePerGas' })
      .then((answer) => BigInt(answer))
      .catch(() => 0n),
  ]);
  const baseFee = block.baseFeePerGas ?? 0n;
  const floor = FLOOR_BY_CHAIN[chainId] ?? 0n;
  const maxPriorityFeePerGas = max(tip, gasPrice - baseFee, floor);
  const maxFeePerGas = max((baseFee * 12n) / 10n + maxPriorityFeePerGas, gasPrice, floor);
  return { maxFeePerGas, maxPriorityFeePerGas };
}

/** Blocks whose paid prices make the recent median. */
const MEDIAN_BLOCKS = 20;

/**
 * The median price per gas that recent blocks' transactions paid (each block's base fee plus its median tip, from
 * eth_feeHistory), over the last MEDIAN_BLOCKS blocks that held any; null when none did (nothing to compare with).
 */
export async function recentMedianGasPrice(client: PublicClient): Promise<bigint | null> {
  const history = await client.getFeeHistory({
    blockCount: MEDIAN_BLOCKS,
    blockTag: 'latest',
    rewardPercentiles: [50],
  });
  const paid: bigint[] = [];
  history.gasUsedRatio.forEach((ratio, i) => {
    const tip = history.reward?.[i]?.[0];
    if (ratio > 0 && tip !== undefined) paid.push((history.baseFeePerGas[i] ?? 0n) + tip);
  });
  if (paid.length === 0) return null;
  paid.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return paid[Math.floor(paid.length / 2)] as bigint;
}
