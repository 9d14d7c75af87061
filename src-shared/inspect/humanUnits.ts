import { formatUnits, maxUint160, maxUint256 } from 'viem';
import { formatFromNow } from '../format/times';
import { type KnownContracts, sameAddress, type TokenInfo, type TokenInfos, tokenInfoAt } from './knownContracts';

/** BNB, and WBNB shown as BNB: the router and the factory pay and take it natively. */
export const BNB: TokenInfo = { symbol: 'BNB', decimals: 18 };

/**
 * The symbol and decimals to show a token's amounts in: BNB for WBNB, the map's entry otherwise, or undefined for a
 * token nobody described (its amounts are then shown as raw units).
 */
export function currencyAt(address: string, known: KnownContracts, tokens: TokenInfos = {}): TokenInfo | undefined {
  if (sameAddress(address, known.wbnb)) return BNB;
  return tokenInfoAt(tokens, address);
}

/**
 * An amount in whole units with its symbol, or raw units with a warning when the token's decimals are unknown.
 * The largest allowances read as unlimited, since that is what they mean to a reviewer.
 *
 * @example formatAmount(1500000000000000000n, BNB) // '1.5 BNB'
 */
export function formatAmount(wei: bigint, currency: TokenInfo | undefined): string {
  if (wei === maxUint256 || wei === maxUint160) return `unlimited${currency ? ` ${currency.symbol}` : ''}`;
  if (!currency) return `${wei} raw units (token decimals unknown)`;
  return `${formatUnits(wei, currency.decimals)} ${currency.symbol}`;
}

/**
 * Basis points as a percentage, exact (1 bps = 0.01%).
 *
 * @example formatBps(20) // '0.2%'
 */
export function formatBps(bps: number | bigint): string {
  return `${formatUnits(BigInt(bps), 2)}%`;
}

/**
 * A pool fee tier, counted as PancakeSwap counts it (millionths: 10000 = 1%), as a percentage.
 *
 * @example formatFeeTier(2500) // '0.25%'
 */
export function formatFeeTier(fee: number): string {
  return `${formatUnits(BigInt(fee), 4)}%`;
}

/** The latest time a Date holds, in seconds: a uint48 expiry or a uint256 deadline can lie beyond it. */
const LATEST_DATE_SECONDS = 8_640_000_000_000n;

/**
 * A Unix time as a person reads it at signing time: how far from `now` it is, then its day (and time of day when it
 * is near), so an expired or far-off deadline shows at a glance. A time no calendar holds is said to be so.
 *
 * @example formatDeadline(1_798_459_200n, 1_795_867_200) // 'in 30 days, 28 Dec 2026' (en-GB)
 */
export function formatDeadline(
  seconds: bigint,
  now: number,
  format: { locale?: string; timeZone?: string } = {},
): string {
  if (seconds > LATEST_DATE_SECONDS) return `Unix time ${seconds}, beyond any date`;
  return formatFromNow(Number(seconds) * 1000, Math.floor(now) * 1000, { ...format, expired: true });
}

/** An address with the label a reviewer may recognise it by. */
export function formatAddress(address: string, label: string | null): string {
  return label ? `${address} (${label})` : address;
}
