import type { PublicClient } from 'viem';

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

const largest = (...values: bigint[]) => values.reduce((a, b) => (a > b ? a : b));

/**
 * The fees for a transaction sent now, as the service fills them for the app: the tip is the one asked for, else the
 * node's suggestion (eth_maxPriorityFeePerGas) or its legacy gas price above the base fee, whichever is higher, and
 * never under BSC's 0.05 gwei floor; the fee cap covers the latest base fee with 20% headroom plus the tip, and the
 * node's gas price. A tip asked under the floor is raised to it, since no BSC validator would take it. `latest` is the
 * chain's latest block when the caller has it already.
 *
 * @example const fees = await sendFees(publicClient, { priorityFeeWei: 1_000_000_000n }); // a 1 gwei tip
 */
export async function sendFees(
  client: PublicClient,
  options: { priorityFeeWei?: bigint; latest?: BaseFee | Promise<BaseFee> } = {},
): Promise<SendFees> {
  const [block, gasPrice, suggested] = await Promise.all([
    options.latest ?? client.getBlock({ blockTag: 'latest' }),
    client.getGasPrice(),
    options.priorityFeeWei === undefined
      ? client
          .request({ method: 'eth_maxPriorityFeePerGas' })
          .then((answer) => BigInt(answer))
          .catch(() => 0n)
      : Promise.resolve(0n),
  ]);
  const baseFee = block.baseFeePerGas ?? 0n;
  const maxPriorityFeePerGas = largest(
    options.priorityFeeWei ?? largest(suggested, gasPrice - baseFee),
    BSC_MIN_PRIORITY_FEE_WEI,
  );
  const maxFeePerGas = largest((baseFee * 12n) / 10n + maxPriorityFeePerGas, gasPrice);
  return { maxFeePerGas, maxPriorityFeePerGas };
}
