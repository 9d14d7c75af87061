import type { UsdPerUnit } from '../api/dollars';
import type { Settings } from '../api/settings';
import type { CapUnit, LaunchDraft } from './launchForm';

/** The pair a draft opens against: its address (for the dollar price), symbol and decimals; null decimals unknown. */
export interface DraftPair {
  address: string;
  symbol: string;
  decimals: number | null;
}

export function pairOf(draft: LaunchDraft, settings: Settings): DraftPair {
  if (draft.pair === 'other') return { address: draft.otherPair.trim(), symbol: 'pair units', decimals: null };
  const listed =
    settings.pairs.find((p) => (p.native ? 'BNB' : p.address) === draft.pair) ?? settings.pairs.find((p) => p.native);
  return listed
    ? { address: listed.address, symbol: listed.symbol, decimals: listed.decimals }
    : { address: '', symbol: 'BNB', decimals: 18 };
}

/** The opening cap the draft asks for, in the pair and in dollars where the pair has a dollar price. */
export interface DraftCap {
  pair: number | null;
  usd: number | null;
  /** Dollars per whole pair unit, or null when the service has no price for the pair. */
  usdPerUnit: number | null;
}

export function capOf(draft: LaunchDraft, settings: Settings, usdPerUnit: UsdPerUnit): DraftCap {
  const pair = pairOf(draft, settings);
  const price = pair.address ? usdPerUnit(pair.address) : null;
  const typed = /^\d+(?:\.\d+)?$/.test(draft.marketCap.trim()) ? Number(draft.marketCap.trim()) : null;
  const usable = typed !== null && typed > 0 ? typed : null;
  if (draft.capUnit === 'usd')
    return { usd: usable, pair: usable !== null && price ? usable / price : null, usdPerUnit: price };
  return { pair: usable, usd: usable !== null && price !== null ? usable * price : null, usdPerUnit: price };
}

/** A decimal string of `value` with at most `places` decimals and `significant` significant digits, no exponent. */
function decimalText(value: number, places: number, significant: number): string {
  if (!(value > 0) || !Number.isFinite(value)) return '0';
  const digits = Math.max(0, Math.min(places, significant - 1 - Math.floor(Math.log10(value))));
  const text = value.toFixed(digits);
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

/**
 * The typed cap re-expressed in the other unit at the pair's dollar price, so switching the unit keeps the cap
 * rather than the number: cents for dollars, six significant digits (within the pair's decimals) for the pair.
 * Unreadable text is kept as it is.
 *
 * @example convertCap('30', 'pair', 'usd', 600, 18) // '18000'
 */
export function convertCap(
  text: string,
  from: CapUnit,
  to: CapUnit,
  usdPerUnit: number,
  decimals: number | null,
): string {
  const trimmed = text.trim();
  if (from === to || !/^\d+(?:\.\d+)?$/.test(trimmed) || !(usdPerUnit > 0)) return text;
  const value = Number(trimmed);
  if (to === 'usd') return decimalText(value * usdPerUnit, 2, 15);
  return decimalText(value / usdPerUnit, decimals ?? 18, 6);
}
