import { formatUnits, maxUint160, maxUint256 } from 'viem';
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

/**
 * A Unix time as an ISO timestamp and how far it is from `now`, so an expired or far-off deadline shows at a glance.
 *
 * @example formatDeadline(1200n, 0) // '1970-01-01T00:20:00.000Z (in 20 minutes)'
 */
export function formatDeadline(seconds: bigint, now: number): string {
  const limit = 8_640_000_000_000n; // the largest time a Date holds, in seconds
  const iso = seconds <= limit ? new Date(Number(seconds) * 1000).toISOString() : `${seconds} (beyond any date)`;
  const delta = Number(seconds - BigInt(Math.floor(now)));
  if (delta <= 0) return `${iso} (expired${delta < 0 ? ` ${formatDuration(-delta)} ago` : ' now'})`;
  return `${iso} (in ${formatDuration(delta)})`;
}

/**
 * A span of seconds in the largest unit that keeps it readable.
 *
 * @example formatDuration(2_592_000) // '30 days'
 */
export function formatDuration(seconds: number): string {
  const unit = (n: number, name: string) => `${n} ${name}${n === 1 ? '' : 's'}`;
  if (seconds < 90) return unit(seconds, 'second');
  if (seconds < 90 * 60) return unit(Math.round(seconds / 60), 'minute');
  if (seconds < 48 * 3600) return unit(Math.round(seconds / 3600), 'hour');
  return unit(Math.round(seconds / 86_400), 'day');
}

/** An address with the label a reviewer may recognise it by. */
export function formatAddress(address: string, label: string | null): string {
  return label ? `${address} (${label})` : address;
}
