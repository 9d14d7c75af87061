import { STREAM_ID_PATTERN as ID } from '../../../src-shared/schema/events';

/**
 * A place in the event stream: a log's block and index, and `part` to order what one log stands for (a launch is
 * part 0; its first buy, which the index keeps at the launch's place, is part 1). A block event stands for the end of
 * its block: every log of it, so its logIndex is Infinity.
 */
export interface StreamPosition {
  block: number;
  logIndex: number;
  part: number;
}

/**
 * The position an event id names: `<block>-<logIndex>` (a launch or trade), `<block>-<logIndex>-1` (a launch's first
 * buy) or `<block>` (a block event: the whole block). Null for anything else.
 *
 * @example parseStreamId('812-3') // { block: 812, logIndex: 3, part: 0 }
 */
export function parseStreamId(id: string): StreamPosition | null {
  const match = ID.exec(id);
  if (!match) return null;
  const block = Number(match[1]);
  if (!Number.isSafeInteger(block)) return null;
  if (match[2] === undefined) return endOfBlock(block);
  return { block, logIndex: Number(match[2]), part: match[3] === undefined ? 0 : 1 };
}

/** The id of an event at `position`, as parseStreamId reads it. */
export function streamIdOf(position: StreamPosition): string {
  if (position.logIndex === Number.POSITIVE_INFINITY) return String(position.block);
  return position.part === 0
    ? `${position.block}-${position.logIndex}`
    : `${position.block}-${position.logIndex}-${position.part}`;
}

/** Just after every log of `block`. */
export function endOfBlock(block: number): StreamPosition {
  return { block, logIndex: Number.POSITIVE_INFINITY, part: 0 };
}

/** Negative when `a` comes before `b` in the chain, zero when they are one place. */
export function compareStreamPositions(a: StreamPosition, b: StreamPosition): number {
  return a.block - b.block || (a.logIndex === b.logIndex ? 0 : a.logIndex < b.logIndex ? -1 : 1) || a.part - b.part;
}
