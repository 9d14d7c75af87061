import type { ShapeRange } from './shapePresets';
import { type CapScale, scaleLabel } from './shapeScale';

/** The drawing's own coordinates (an SVG viewBox); the SVG scales to its box. */
export const CHART = { width: 640, height: 260, left: 64, right: 34, top: 18, bottom: 46 } as const;
export const PLOT_WIDTH = CHART.width - CHART.left - CHART.right;
export const PLOT_HEIGHT = CHART.height - CHART.top - CHART.bottom;

/** A "band" is a tenth of the scale: the y axis reads in per cent of the supply per band. */
const BAND_PCT = 10;

export interface ShapeBar {
  index: number;
  x: number;
  y: number;
  width: number;
  height: number;
  /** Per cent of the shaped supply in one band of this range. */
  perBandPct: number;
}

export interface ShapeGeometry {
  bars: ShapeBar[];
  xTicks: { x: number; label: string }[];
  yTicks: { y: number; label: string }[];
}

/** The x of `pct` of the scale in the drawing. */
export const xOf = (pct: number): number => CHART.left + (Math.min(Math.max(pct, 0), 100) / 100) * PLOT_WIDTH;

/** The per cent of the scale at drawing x `x` (the inverse of xOf, unclamped). */
export const pctAt = (x: number): number => ((x - CHART.left) / PLOT_WIDTH) * 100;

/**
 * How thick the supply lies in a range: its share spread over its width. A narrow range with a quarter of the supply
 * stands tall; the same quarter over a wide range lies low, which is how slowly the price moves through it.
 *
 * @example perBandPct({ fromPct: 0, toPct: 10, bps: 2500 }) // 25
 */
export function perBandPct(range: ShapeRange): number {
  const width = range.toPct - range.fromPct;
  return width > 0 ? (range.bps / 100 / width) * BAND_PCT : 0;
}

/** A round top for the y axis, a little above the tallest bar. */
function niceTop(value: number): number {
  if (!(value > 0)) return 10;
  const step = 10 ** Math.floor(Math.log10(value));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * step >= value) return m * step;
  return 10 * step;
}

/**
 * Bars and axes of a shape: one bar per drawable range (ranges with unreadable or reversed ends are left out, the
 * editor flags them), x ticks every 10% of the scale labelled in market caps (or in multiples of the opening price
 * while no cap is known).
 */
export function shapeGeometry(ranges: readonly ShapeRange[], scale: CapScale | null = null): ShapeGeometry {
  const drawable = ranges
    .map((range, index) => ({ range, index }))
    .filter(
      ({ range }) =>
        Number.isFinite(range.fromPct) && Number.isFinite(range.toPct) && Number.isFinite(range.bps) && range.bps > 0,
    )
    .filter(({ range }) => range.toPct > range.fromPct);
  const top = niceTop(Math.max(0, ...drawable.map(({ range }) => perBandPct(range))));
  const yOf = (value: number) => CHART.top + PLOT_HEIGHT - (Math.min(value, top) / top) * PLOT_HEIGHT;
  const bars = drawable.map(({ range, index }) => {
    const value = perBandPct(range);
    const x = xOf(range.fromPct);
    return {
      index,
      x,
      y: yOf(value),
      width: xOf(range.toPct) - x,
      height: CHART.top + PLOT_HEIGHT - yOf(value),
      perBandPct: value,
    };
  });
  const xTicks = Array.from({ length: 11 }, (_, i) => ({ x: xOf(i * 10), label: scaleLabel(i * 10, scale) }));
  const yTicks = [0, top / 2, top].map((value) => ({ y: yOf(value), label: `${Number(value.toPrecision(3))}%` }));
  return { bars, xTicks, yTicks };
}
