import { SHAPE_PRESETS } from '../../../src-shared/schema/launch';
import { ApiError } from '../errors';
import { MAX_TICK } from '../math/tickMath';

/** The price span shapes are drawn over: 46,000 ticks, about 100x in price. */
export const SHAPE_SPAN_TICKS = 46_000;
export const MAX_RANGES = 4;

/** One range of a shape: from/to in per cent of the span above the opening price, and its share of the supply. */
export interface ShapeRange {
  fromPct: number;
  toPct: number;
  bps: number;
}

/**
 * The presets, in the token's price (up from the opening price); one list, in src-shared/schema/launch.ts, which the
 * request schema and the wizard read too:
 * - flat: the whole supply evenly in tick space from the opening price to the top;
 * - stepped: four equal quarters of the supply over widening spans (0-10%, 10-30%, 30-60%, 60% and up), so the
 *   price climbs slowly at first and faster as it rises;
 * - steep: little supply near the opening price (10% over the first 20%, then 20%, 30%, 40%), so early buys move
 *   the price a lot.
 * The last range of every shape runs to the top usable tick, so no shape caps the price.
 */
export { SHAPE_PRESETS };

export interface TickRange {
  tickLower: number;
  tickUpper: number;
  bps: number;
}

/**
 * The ranges of a launch's shape as parsed (src-shared/schema/launch.ts checks its rules): a preset by name, flat when
 * none is sent, or the ranges as sent.
 *
 * @example readShape('stepped') // SHAPE_PRESETS.stepped
 */
export function readShape(shape: string | readonly ShapeRange[] | undefined): readonly ShapeRange[] {
  if (shape === undefined) return SHAPE_PRESETS.flat;
  if (typeof shape !== 'string') return shape;
  const preset = SHAPE_PRESETS[shape as keyof typeof SHAPE_PRESETS];
  if (!preset) {
    throw new ApiError('INVALID_SHAPE', `shape "${shape}" is not a preset: use flat, stepped or steep`, {
      field: 'shape',
    });
  }
  return preset;
}

/**
 * Turns a shape into pool ticks for an opening tick: each range's percentages of the span above the opening price,
 * aligned to the spacing (the last range running to the top usable tick), mirrored when the token is token1 (its
 * price rises as the pool tick falls). SHAPE_BELOW_LADDER when the opening price sits so high that the shape no
 * longer fits below the top of the price range.
 */
export function shapeTicks(
  shape: readonly ShapeRange[],
  opening: number,
  tokenIs0: boolean,
  spacing: number,
): TickRange[] {
  const top = Math.floor(MAX_TICK / spacing) * spacing;
  // Distances in the token's own price direction, from the opening tick.
  const room = tokenIs0 ? top - opening : opening + top;
  const at = (pct: number) => Math.round(((pct / 100) * SHAPE_SPAN_TICKS) / spacing) * spacing;
  const ranges = shape.map((range, i) => {
    const last = i === shape.length - 1;
    const from = at(range.fromPct);
    const to = last ? room : at(range.toPct);
    if (to > room || from >= to) {
      throw new ApiError(
        'SHAPE_BELOW_LADDER',
        'the shape no longer fits above the opening price; build again, or leave shape out',
        {
          field: 'shape',
        },
      );
    }
    return tokenIs0
      ? { tickLower: opening + from, tickUpper: opening + to, bps: range.bps }
      : { tickLower: opening - to, tickUpper: opening - from, bps: range.bps };
  });
  return ranges;
}
