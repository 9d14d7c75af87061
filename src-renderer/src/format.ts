/** 0x1234…abcd: an address shortened for a row or a chip (the whole one goes in a title or a copy button). */
export const shortAddress = (address: string): string => `${address.slice(0, 6)}…${address.slice(-4)}`;

/**
 * A percent as a trader reads it: at most two decimals (none from 100% up), never a long float, and a floor for the
 * smallest, which would read as none ("23.4%", "0.05%", "<0.01%"). `fixed` writes exactly two decimals, so a column
 * of shares lines up; `some` says the percent is of an amount above zero, so one rounded to 0 still reads as some.
 *
 * @example formatPct(23.4) // '23.4%'; formatPct(12.3456, { fixed: true }) // '12.35%'; formatPct(0.0004) // '<0.01%'
 */
export function formatPct(percent: number, { fixed = false, some = percent > 0 } = {}): string {
  if (some && percent < 0.01) return '<0.01%';
  const decimals = fixed
    ? { minimumFractionDigits: 2, maximumFractionDigits: 2 }
    : { maximumFractionDigits: percent >= 100 ? 0 : 2 };
  return `${percent.toLocaleString('en-US', decimals)}%`;
}

/**
 * A holder's share (a percent, 0 to 100) as a reader compares shares at a glance: `formatPct` with two decimals.
 *
 * @example formatSharePct(12.3456) // '12.35%'; formatSharePct(0.0004) // '<0.01%'
 */
export function formatSharePct(percent: number, some = percent > 0): string {
  return formatPct(percent, { fixed: true, some });
}
