import { describe, expect, it } from 'vitest';
import { compareStreamPositions, endOfBlock, parseStreamId, type StreamPosition, streamIdOf } from './streamPosition';

describe('stream positions', () => {
  it('reads the three id forms and writes them back unchanged', () => {
    for (const id of ['0', '812', '812-0', '812-3', '812-3-1', '999999999999999-123456789']) {
      const position = parseStreamId(id);
      expect(position, id).not.toBeNull();
      expect(streamIdOf(position as StreamPosition)).toBe(id);
    }
    expect(parseStreamId('812-3-1')).toEqual({ block: 812, logIndex: 3, part: 1 });
    expect(parseStreamId('812')).toEqual(endOfBlock(812));
  });

  it('refuses anything else', () => {
    for (const id of [
      '',
      '-1',
      '1-',
      '1--2',
      '1-2-2',
      '1-2-1-1',
      'x',
      '1.5',
      ' 1',
      '1 ',
      '0x10',
      '1234567890123456',
      '1-1234567890',
    ]) {
      expect(parseStreamId(id), id).toBeNull();
    }
  });

  it('orders by block, then log, then part, with a block event after all of its block', () => {
    const ordered = ['7', '8-0', '8-2', '8-2-1', '8-3', '8', '9-0'].map((id) => parseStreamId(id) as StreamPosition);
    for (const [i, position] of ordered.entries()) {
      const before = ordered[i - 1];
      if (!before) continue;
      expect(compareStreamPositions(before, position)).toBeLessThan(0);
      expect(compareStreamPositions(position, before)).toBeGreaterThan(0);
      expect(compareStreamPositions(position, position)).toBe(0);
    }
  });
});
