import { type DraftRange, MAX_RANGES } from './shapeDraft';

/** The narrowest a range may be dragged to, in per cent of the scale. */
const MIN_WIDTH_PCT = 1;

const num = (text: string): number => {
  const value = Number(text.trim());
  return text.trim() !== '' && Number.isFinite(value) ? value : Number.NaN;
};

/** Which end of a range an edge is. */
export type EdgeSide = 'from' | 'to';

/**
 * Adds a range by splitting the last one in two at the middle of its span, halving its share, so the shares still
 * add to what they did and the new last range still runs to the top.
 */
export function addRange(draft: readonly DraftRange[]): DraftRange[] {
  const last = draft[draft.length - 1];
  if (!last || draft.length >= MAX_RANGES) return [...draft];
  const from = Number.isNaN(num(last.fromPct)) ? 0 : num(last.fromPct);
  const middle = Math.round((from + 100) / 2);
  const bps = Number.isNaN(num(last.bps)) ? 0 : Math.trunc(num(last.bps));
  const kept = Math.ceil(bps / 2);
  return [
    ...draft.slice(0, -1),
    { fromPct: last.fromPct, toPct: String(middle), bps: String(kept) },
    { fromPct: String(middle), toPct: '100', bps: String(bps - kept) },
  ];
}

/**
 * Removes range `index`, giving its span and its share to the range before it (to the next one for the first), so
 * removing a range never opens a gap nor loses supply.
 */
export function removeRange(draft: readonly DraftRange[], index: number): DraftRange[] {
  const removed = draft[index];
  if (!removed || draft.length <= 1) return [...draft];
  const heir = index > 0 ? index - 1 : 1;
  const next = draft.map((range) => ({ ...range }));
  const target = next[heir];
  if (target) {
    const sum = num(target.bps) + num(removed.bps);
    if (!Number.isNaN(sum)) target.bps = String(sum);
    if (heir < index) target.toPct = removed.toPct;
    else target.fromPct = removed.fromPct;
  }
  next.splice(index, 1);
  const last = next[next.length - 1];
  if (last) last.toPct = '100';
  return next;
}

/** True when range `index`'s end is where the next range begins: the two edges move as one. */
export function sharesEdge(draft: readonly DraftRange[], index: number): boolean {
  const range = draft[index];
  const next = draft[index + 1];
  return !!range && !!next && num(range.toPct) === num(next.fromPct);
}

/**
 * Moves one edge to `pct` (whole per cents), kept between its neighbours so ranges stay ascending and at least 1%
 * wide. An end shared with the next range's start moves both. The last range's end is the top and does not move.
 */
export function moveEdge(draft: readonly DraftRange[], index: number, side: EdgeSide, pct: number): DraftRange[] {
  const range = draft[index];
  if (!range) return [...draft];
  const lastIndex = draft.length - 1;
  if (side === 'to' && index === lastIndex) return [...draft];
  const at = (i: number, key: 'fromPct' | 'toPct', fallback: number) => {
    const r = draft[i];
    const value = r ? num(r[key]) : Number.NaN;
    return Number.isNaN(value) ? fallback : value;
  };
  const linked = side === 'to' && sharesEdge(draft, index);
  let low: number;
  let high: number;
  if (side === 'from') {
    low = index > 0 ? at(index - 1, 'toPct', 0) : 0;
    high = (index === lastIndex ? 100 : at(index, 'toPct', 100)) - MIN_WIDTH_PCT;
  } else {
    low = at(index, 'fromPct', 0) + MIN_WIDTH_PCT;
    high = linked
      ? (index + 1 === lastIndex ? 100 : at(index + 1, 'toPct', 100)) - MIN_WIDTH_PCT
      : at(index + 1, 'fromPct', 100);
  }
  const value = String(Math.min(Math.max(Math.round(pct), Math.ceil(low)), Math.floor(high)));
  return draft.map((r, i) => {
    if (i === index) return side === 'from' ? { ...r, fromPct: value } : { ...r, toPct: value };
    if (linked && i === index + 1) return { ...r, fromPct: value };
    return r;
  });
}
