/** 0x1234…abcd: an address shortened for a row or a chip (the whole one goes in a title or a copy button). */
export const shortAddress = (address: string): string => `${address.slice(0, 6)}…${address.slice(-4)}`;

/**
 * A share (a percent, 0 to 100) as a reader compares shares at a glance: two decimals, and a floor for the smallest,
 * which would read as none. `some` says the share is of an amount above zero, so one rounded to 0 still reads as some.
 *
 * @example formatSharePct(12.3456) // '12.35%'; formatSharePct(0.0004) // '<0.01%'
 */
export function formatSharePct(percent: number, some = percent > 0): string {
  if (some && percent < 0.01) return '<0.01%';
  return `${percent.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}%`;
}
