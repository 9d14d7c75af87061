import { type Hex, parseTransaction, toHex } from 'viem';
import { BSC_MIN_GAS_PRICE_WEI } from '../readFees';
import { type EdrProvider, type EdrProviderOptions, RpcError } from './edrProvider';

/**
 * The embedded EVM's settings for BSC's fees: a base fee of 0, which stays 0 (it could only rise after a block more
 * than half full, and the devnet mines one transaction per block under a 140M gas limit), and the validators' minimum
 * gas price, below which a transaction is refused.
 */
export const BSC_FEE_SETTINGS: Pick<EdrProviderOptions, 'initialBaseFeePerGas' | 'minGasPrice'> = {
  initialBaseFeePerGas: 0n,
  minGasPrice: BSC_MIN_GAS_PRICE_WEI,
};

/**
 * The devnet answering about fees as a BSC node does: eth_gasPrice and eth_maxPriorityFeePerGas suggest the minimum
 * gas price (EDR suggests 1 gwei), and a transaction under it is refused in BSC's words ("transaction underpriced").
 */
export function withBscFees(provider: EdrProvider): EdrProvider {
  const minimum = BSC_FEE_SETTINGS.minGasPrice as bigint;
  const raw: EdrProvider['raw'] = async (method, params) => {
    if (method === 'eth_gasPrice' || method === 'eth_maxPriorityFeePerGas') return { result: toHex(minimum) };
    // A node refuses an underpriced transaction as it arrives; the EVM's own check comes only when it mines, so at a
    // block cadence such a transaction would wait in the mempool for ever instead.
    if (method === 'eth_sendRawTransaction' && typeof params[0] === 'string') {
      const underpriced = bscUnderpriced(params[0] as Hex);
      if (underpriced) return { error: { code: -32000, message: underpriced } };
    }
    const answer = await provider.raw(method, params);
    const below = answer.error?.message.match(/gas price is (\d+), which is below the minimum of (\d+)/i);
    if (answer.error && below) {
      return {
        error: {
          ...answer.error,
          message: `transaction underpriced: gas tip cap ${below[1]}, minimum needed ${below[2]}`,
        },
      };
    }
    return answer;
  };
  const request = (async ({ method, params }: { method: string; params?: unknown }) => {
    const answer = await raw(method, Array.isArray(params) ? params : params === undefined ? [] : [params]);
    if (answer.error) throw new RpcError(answer.error.code, answer.error.message, answer.error.data);
    return answer.result;
  }) as EdrProvider['request'];
  return { request, raw };
}

/**
 * BSC's refusal of a signed transaction bidding under the validators' minimum gas price, in its words, or null when
 * it bids enough (or cannot be read: the EVM refuses that itself).
 */
export function bscUnderpriced(raw: Hex): string | null {
  const minimum = BSC_FEE_SETTINGS.minGasPrice as bigint;
  const tip = tipOf(raw);
  return tip !== undefined && tip < minimum
    ? `transaction underpriced: gas tip cap ${tip}, minimum needed ${minimum}`
    : null;
}

/** The priority fee a signed transaction bids with a base fee of 0 (BSC's); undefined when it cannot be read. */
function tipOf(raw: Hex): bigint | undefined {
  try {
    const tx = parseTransaction(raw);
    if (tx.maxPriorityFeePerGas !== undefined && tx.maxFeePerGas !== undefined) {
      return tx.maxPriorityFeePerGas < tx.maxFeePerGas ? tx.maxPriorityFeePerGas : tx.maxFeePerGas;
    }
    return tx.gasPrice;
  } catch {
    return undefined;
  }
}
