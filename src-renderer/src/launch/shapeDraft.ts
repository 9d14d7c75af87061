import type { ShapeRange } from './shapePresets';

/** The spec's limits on a custom shape. */
export const MAX_RANGES = 4;
export const TOTAL_BPS = 10_000;

/** A range as typed: kept as text so a half-typed number is not lost. */
export interface DraftRange {
  fromPct: string;
  toPct: string;
  bps: string;
}

export interface ShapeProblem {
  /** The range the problem is in, or null for the shape as a whole. */
  index: number | null;
  field: 'fromPct' | 'toPct' | 'bps' | null;
  message: string;
}

export interface ShapeReading {
  /** The ranges as numbers (NaN where the text is not one), the last one always running to 100. */
  ranges: ShapeRange[];
  totalBps: number;
  /** What is left to give out: 0 when the shares add to 10,000. */
  remainderBps: number;
  problems: ShapeProblem[];
}

const NUMBER = /^\d+(?:\.\d+)?$/;
const WHOLE = /^\d+$/;

const numberOf = (text: string): number => (NUMBER.test(text.trim()) ? Number(text.trim()) : Number.NaN);

/** Draft text for ranges, so a preset can become the start of a custom shape. */
export function draftOf(ranges: readonly ShapeRange[]): DraftRange[] {
  return ranges.map((range) => ({
    fromPct: String(range.fromPct),
    toPct: String(range.toPct),
    bps: String(range.bps),
  }));
}

/**
 * Checks a custom shape by the spec's rules (1 to 4 ranges inside 0-100%, ascending and not overlapping, whole bps
 * adding to 10,000), so the person sees every problem while typing. The service checks again and has the last word.
 */
export function readDraftShape(draft: readonly DraftRange[]): ShapeReading {
  const problems: ShapeProblem[] = [];
  if (draft.length < 1 || draft.length > MAX_RANGES) {
    problems.push({ index: null, field: null, message: `A shape has 1 to ${MAX_RANGES} ranges.` });
  }
  let previousTo = 0;
  let totalBps = 0;
  const ranges = draft.map((range, index): ShapeRange => {
    const last = index === draft.length - 1;
    const fromPct = numberOf(range.fromPct);
    const toPct = last ? 100 : numberOf(range.toPct);
    const bps = WHOLE.test(range.bps.trim()) ? Number(range.bps.trim()) : Number.NaN;
    if (Number.isNaN(fromPct) || fromPct > 100) {
      problems.push({ index, field: 'fromPct', message: 'From must be a number from 0 to 100.' });
    } else if (fromPct < previousTo) {
      problems.push({ index, field: 'fromPct', message: 'It starts inside the range before it.' });
    }
    if (Number.isNaN(toPct) || toPct > 100) {
      problems.push({ index, field: 'toPct', message: 'To must be a number up to 100.' });
    } else if (!Number.isNaN(fromPct) && toPct <= fromPct) {
      problems.push({ index, field: 'toPct', message: 'To must be above From.' });
    }
    if (Number.isNaN(bps) || bps < 1 || bps > TOTAL_BPS) {
      problems.push({ index, field: 'bps', message: 'The share is a whole number of bps from 1 to 10000.' });
    } else {
      totalBps += bps;
    }
    if (!Number.isNaN(toPct)) previousTo = toPct;
    return { fromPct, toPct, bps };
  });
  const remainderBps = TOTAL_BPS - totalBps;
  if (remainderBps !== 0) {
    problems.push({
      index: null,
      field: null,
      message:
        remainderBps > 0
          ? `The shares add to ${totalBps} bps: ${remainderBps} are left to give out.`
          : `The shares add to ${totalBps} bps: ${-remainderBps} too many.`,
    });
  }
  return { ranges, totalBps, remainderBps, problems };
}
