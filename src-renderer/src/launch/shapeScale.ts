import { formatAmount, formatUsd } from '../../../src-shared/format/numbers';

/**
 * The price scale shapes are drawn on, as the service lays it (src-main/core/launch/shapes.ts): 0-100% of 46,000
 * ticks above the opening price. Re-expressed here for display only; the service does the real tick math.
 */
export const SHAPE_SPAN_TICKS = 46_000;

/** One tick is a 0.01% step in price. */
const TICK_BASE = 1.0001;

/**
 * The price at `pct` of the scale as a multiple of the opening price (1.0001 to the power of the ticks), so the axis
 * can read in prices a person knows rather than in ticks.
 *
 * @example priceMultipleAt(100) // ≈ 99.5
 */
export function priceMultipleAt(pct: number): number {
  return TICK_BASE ** ((pct / 100) * SHAPE_SPAN_TICKS);
}

/**
 * An axis label for `pct` of the scale: two significant digits are plenty to read a chart by.
 *
 * @example multipleLabel(0) // "1x"; multipleLabel(20) // "2.5x"; multipleLabel(100) // "99x"
 */
export function multipleLabel(pct: number): string {
  return `${Number(priceMultipleAt(pct).toPrecision(2))}x`;
}

/** A market cap to label the scale with: an amount and its unit ('$' or the pair's symbol). */
export interface CapScale {
  cap: number;
  unit: string;
}

/**
 * A cap in a few characters: $25.1K for dollars, 30.5 BNB or 1.2K BNB for a pair.
 *
 * @example capText(25_100, '$') // "$25.1K"; capText(30.54, 'BNB') // "30.5 BNB"
 */
export function capText(cap: number, unit: string): string {
  if (unit === '$') return formatUsd(cap);
  const micro = BigInt(Math.round(cap * 1e6));
  return `${formatAmount(micro, 6, { compact: true, significant: 3 })} ${unit}`;
}

/**
 * The market cap at `pct` of the scale, given the cap the token opens at: the cap moves with the price, so it is the
 * opening cap times the price multiple there.
 *
 * @example capAtLabel(100, { cap: 25_000, unit: '$' }) // "$2.49M"
 */
export function capAtLabel(pct: number, scale: CapScale): string {
  return capText(scale.cap * priceMultipleAt(pct), scale.unit);
}

/** The scale's label at `pct`: a cap when the opening cap is known, else a multiple of the opening price. */
export function scaleLabel(pct: number, scale: CapScale | null): string {
  return scale ? capAtLabel(pct, scale) : multipleLabel(pct);
}

/** A range as the caps it spans: "$25K → $60K", and "→ no cap" for the last one, which runs on to the top. */
export function rangeCapsText(
  range: { fromPct: number; toPct: number },
  last: boolean,
  scale: CapScale | null,
): string {
  if (!Number.isFinite(range.fromPct) || !Number.isFinite(range.toPct)) return '—';
  return `${scaleLabel(range.fromPct, scale)} → ${last ? 'no cap' : scaleLabel(range.toPct, scale)}`;
}
