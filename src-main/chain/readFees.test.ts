import type { PublicClient } from 'viem';
import { describe, expect, it } from 'vitest';
import { BSC_MIN_GAS_PRICE_WEI, readFees } from './readFees';

const GWEI = 1_000_000_000n;

/** A node that reports these: the latest base fee, eth_gasPrice and eth_maxPriorityFeePerGas (null: not served). */
function node(baseFee: bigint | null, gasPrice: bigint, tip: bigint | null): PublicClient {
  return {
    getBlock: async () => ({ baseFeePerGas: baseFee }),
    getGasPrice: async () => gasPrice,
    request: async () => {
      if (tip === null) throw new Error('the method eth_maxPriorityFeePerGas does not exist/is not available');
      return `0x${tip.toString(16)}`;
    },
  } as unknown as PublicClient;
}

describe('readFees', () => {
  it('pays BSC its minimum gas price as the whole price (base fee 0), even where the node suggests less', async () => {
    for (const chainId of [56, 97]) {
      expect(await readFees(node(0n, GWEI / 100n, GWEI / 100n), chainId)).toEqual({
        maxFeePerGas: BSC_MIN_GAS_PRICE_WEI,
        maxPriorityFeePerGas: BSC_MIN_GAS_PRICE_WEI,
      });
    }
  });

  it('never pays below what the node reports as needed: its tip, or its legacy gas price', async () => {
    expect(await readFees(node(0n, GWEI / 10n, null), 56)).toEqual({
      maxFeePerGas: GWEI / 10n,
      maxPriorityFeePerGas: GWEI / 10n,
    });
    expect(await readFees(node(0n, GWEI / 10n, GWEI), 56)).toEqual({ maxFeePerGas: GWEI, maxPriorityFeePerGas: GWEI });
  });

  it('keeps EIP-1559 headroom over a base fee elsewhere, as before', async () => {
    // EDR's answers on the devnet: base fee 0.1 gwei, gas price base + 1 gwei, tip 1 gwei.
    expect(await readFees(node(GWEI / 10n, GWEI + GWEI / 10n, GWEI), 31337)).toEqual({
      maxFeePerGas: GWEI + ((GWEI / 10n) * 12n) / 10n,
      maxPriorityFeePerGas: GWEI,
    });
  });
});
