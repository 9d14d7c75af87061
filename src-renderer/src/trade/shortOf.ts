import { parseUnits } from 'viem';
import type { Balances, Side, TokenInfo } from '../api/tokens';

/**
 * BNB kept back for gas before anything is built (a trade and two approvals at a few gwei cost far less); once the
 * trade is built, its own network fee is used instead.
 */
export const GAS_RESERVE_WEI = parseUnits('0.002', 18);

/**
 * What the wallet is short of for this trade, if anything: the paid currency (the typed amount, or the quote's
 * ceiling for an exact-out trade) or BNB for gas. Null while it cannot be told yet or nothing is short.
 */
export function shortOf(
  balances: Balances | null,
  token: TokenInfo,
  side: Side,
  payWei: bigint | null,
  gasWei: bigint,
): string | null {
  if (!balances || payWei === null) return null;
  const bnb = BigInt(balances.bnbWei);
  if (side === 'sell') {
    if (payWei > BigInt(balances.token.wei)) return token.symbol;
    return bnb < gasWei ? 'BNB' : null;
  }
  if (balances.pair.native) return payWei + gasWei > bnb ? 'BNB' : null;
  if (payWei > BigInt(balances.pair.wei)) return balances.pair.symbol;
  return bnb < gasWei ? 'BNB' : null;
}
