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
