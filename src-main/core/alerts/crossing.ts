/**
 * The crossing rule of a watched token's alert: fire once when the watched figure (a price or a market cap) passes the
 * person's figure in the direction asked, and not again on every trade after it. Values are integers of one unit
 * (wei of 18 decimals of dollars or BNB), so nothing is compared as a float.
 *
 * Re-arming has hysteresis: after firing, the rule fires again only once the value has come back past the figure by
 * REARM_BPS (1%) and then crosses again. A price trading back and forth across the figure by a hair is one crossing,
 * not one per trade.
 */

export type CrossingDirection = 'above' | 'below';

/**
 * Where the value last stood against the rule: `unknown` before it was first seen (just set), `armed` on the near
 * side (a crossing would fire), `fired` past the figure (or not yet back past the re-arm line).
 */
export type CrossingState = 'unknown' | 'armed' | 'fired';

/** How far (basis points of the figure) the value must come back before the rule can fire again. */
export const REARM_BPS = 100n;

export interface CrossingRule {
  direction: CrossingDirection;
  /** The person's figure, in the same unit as the values. */
  figure: bigint;
}

/** Whether `value` is at or past the figure in the rule's direction. */
function isPast(rule: CrossingRule, value: bigint): boolean {
  return rule.direction === 'above' ? value >= rule.figure : value <= rule.figure;
}

/** Whether `value` is back on the near side by REARM_BPS of the figure. */
function isBack(rule: CrossingRule, value: bigint): boolean {
  return rule.direction === 'above'
    ? value * 10_000n < rule.figure * (10_000n - REARM_BPS)
    : value * 10_000n > rule.figure * (10_000n + REARM_BPS);
}

/**
 * The rule's next state after seeing `value`, and whether that observation fires. The first observation (`unknown`)
 * never fires: a value already past the figure when the rule was set has not crossed it since.
 *
 * @example crossingStep({ direction: 'above', figure: 100n }, 'armed', 101n) // { state: 'fired', fires: true }
 */
export function crossingStep(
  rule: CrossingRule,
  state: CrossingState,
  value: bigint,
): { state: CrossingState; fires: boolean } {
  switch (state) {
    case 'unknown':
      return { state: isPast(rule, value) ? 'fired' : 'armed', fires: false };
    case 'armed':
      return isPast(rule, value) ? { state: 'fired', fires: true } : { state: 'armed', fires: false };
    case 'fired':
      return { state: isBack(rule, value) ? 'armed' : 'fired', fires: false };
  }
}
