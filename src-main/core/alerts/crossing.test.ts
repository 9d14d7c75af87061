import { describe, expect, it } from 'vitest';
import { type CrossingRule, type CrossingState, crossingStep } from './crossing';

/** Feeds `values` through the rule from `start`, returning the indexes of the values that fired. */
function firedAt(rule: CrossingRule, values: bigint[], start: CrossingState = 'armed'): number[] {
  let state = start;
  const fired: number[] = [];
  values.forEach((value, i) => {
    const step = crossingStep(rule, state, value);
    state = step.state;
    if (step.fires) fired.push(i);
  });
  return fired;
}

const above: CrossingRule = { direction: 'above', figure: 10_000n };
const below: CrossingRule = { direction: 'below', figure: 10_000n };

describe('crossingStep', () => {
  it('fires once when the value goes up past an "above" figure, not on the trades after it', () => {
    expect(firedAt(above, [9_000n, 9_999n, 10_000n, 10_500n, 11_000n, 10_200n])).toEqual([2]);
  });

  it('fires once when the value goes down past a "below" figure', () => {
    expect(firedAt(below, [11_000n, 10_001n, 10_000n, 9_000n, 9_500n])).toEqual([2]);
  });

  it('does not fire while the value stays on the near side', () => {
    expect(firedAt(above, [1n, 5_000n, 9_999n])).toEqual([]);
    expect(firedAt(below, [20_000n, 10_001n])).toEqual([]);
  });

  it('re-arms only after coming back past the figure by 1%, then fires on the next crossing', () => {
    // 9,950 is back under the figure by 0.5%: a hair's wobble, not a new crossing.
    expect(firedAt(above, [9_000n, 10_100n, 9_950n, 10_050n])).toEqual([1]);
    // 9,899 is more than 1% under it: armed again, and the next crossing fires.
    expect(firedAt(above, [9_000n, 10_100n, 9_899n, 10_050n])).toEqual([1, 3]);
    expect(firedAt(below, [11_000n, 9_900n, 10_050n, 9_990n])).toEqual([1]);
    expect(firedAt(below, [11_000n, 9_900n, 10_101n, 9_990n])).toEqual([1, 3]);
  });

  it('exactly 1% back is not yet back', () => {
    expect(firedAt(above, [9_000n, 10_000n, 9_900n, 10_000n])).toEqual([1]);
    expect(firedAt(below, [11_000n, 10_000n, 10_100n, 10_000n])).toEqual([1]);
  });

  it('never fires on the first look: a value already past the figure when the rule was set has not crossed it', () => {
    expect(crossingStep(above, 'unknown', 12_000n)).toEqual({ state: 'fired', fires: false });
    expect(crossingStep(above, 'unknown', 8_000n)).toEqual({ state: 'armed', fires: false });
    expect(crossingStep(below, 'unknown', 8_000n)).toEqual({ state: 'fired', fires: false });
    // Set while past: it fires only after coming back and crossing again.
    expect(firedAt(above, [12_000n, 11_000n, 9_000n, 10_000n], 'unknown')).toEqual([3]);
  });

  it('works on amounts far beyond a float', () => {
    const big: CrossingRule = { direction: 'above', figure: 10n ** 40n + 1n };
    expect(firedAt(big, [10n ** 40n, 10n ** 40n + 1n])).toEqual([1]);
  });
});
