import { parseUnits } from 'viem';

/** A slippage typed in per cent ("0.5") as basis points; null unless it is 0.01% to `maxBps` with two places at most. */
export function slippageBpsOf(text: string, maxBps: number): number | null {
  const match = /^(\d{1,5})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  const bps = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return bps >= 1 && bps <= maxBps ? bps : null;
}

/** A typed amount in wei, or null while it is no amount (the quote answers why). */
export function weiOf(text: string, decimals: number): bigint | null {
  if (!/^\d*\.?\d*$/.test(text) || text === '' || text === '.') return null;
  try {
    return parseUnits(text, decimals);
  } catch {
    return null;
  }
}
