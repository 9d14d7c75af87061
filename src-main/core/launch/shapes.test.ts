import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors';
import { MAX_TICK } from '../math/tickMath';
import { readShape, SHAPE_PRESETS, shapeTicks } from './shapes';

const codeOf = (run: () => unknown) => {
  try {
    run();
    return 'ok';
  } catch (error) {
    return error instanceof ApiError ? error.code : String(error);
  }
};

describe('readShape', () => {
  it('reads presets, defaulting to flat', () => {
    expect(readShape(undefined)).toBe(SHAPE_PRESETS.flat);
    expect(readShape('steep')).toBe(SHAPE_PRESETS.steep);
  });
});

describe('shapeTicks', () => {
  it('lays ranges above the opening price in the token’s direction, the last one to the top', () => {
    const top = Math.floor(MAX_TICK / 200) * 200;
    const up = shapeTicks(SHAPE_PRESETS.stepped, -200000, true, 200);
    expect(up[0]).toEqual({ tickLower: -200000, tickUpper: -200000 + 4600, bps: 2500 });
    expect(up.at(-1)?.tickUpper).toBe(top);
    const down = shapeTicks(SHAPE_PRESETS.stepped, 200000, false, 200);
    expect(down[0]).toEqual({ tickLower: 200000 - 4600, tickUpper: 200000, bps: 2500 });
    expect(down.at(-1)?.tickLower).toBe(-top);
  });

  it('answers SHAPE_BELOW_LADDER when the shape no longer fits under the top price', () => {
    expect(codeOf(() => shapeTicks(SHAPE_PRESETS.stepped, 860000, true, 200))).toBe('SHAPE_BELOW_LADDER');
    expect(codeOf(() => shapeTicks(SHAPE_PRESETS.flat, 860000, true, 200))).toBe('ok');
  });
});
