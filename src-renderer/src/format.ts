import { formatUnits } from 'viem';

/** 0x1234…abcd */
export const shortAddress = (address: string): string => `${address.slice(0, 6)}…${address.slice(-4)}`;

/** A wei amount in whole units, trimmed to `digits` significant decimals for display (never for math). */
export function displayUnits(wei: bigint | string, decimals = 18, digits = 6): string {
  const text = formatUnits(typeof wei === 'bigint' ? wei : BigInt(wei), decimals);
  const [whole, fraction = ''] = text.split('.');
  if (!fraction) return whole ?? '0';
  const kept = whole === '0' || whole === '-0' ? fraction.replace(/^(0*\d{0,4}).*$/, '$1') : fraction.slice(0, digits);
  const trimmed = kept.replace(/0+$/, '');
  return trimmed ? `${whole}.${trimmed}` : (whole ?? '0');
}

/** "3 min ago", "2 h ago", "5 d ago". */
export function age(iso: string | number, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - new Date(iso).getTime()) / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  return `${Math.floor(seconds / 86_400)} d ago`;
}

/** Compact number for caps and prices: 1.2M, 35.4k, 0.00012. */
export function compact(value: number): string {
  if (!Number.isFinite(value)) return '—';
  return new Intl.NumberFormat('en', { notation: 'compact', maximumSignificantDigits: 4 }).format(value);
}
