import { decodeServiceEvent, type RawLog, type ServiceEvent } from '../../chain/serviceEvents';
import type { IndexCursor } from '../../store/indexStore';
import { ChainMoved } from './indexerErrors';
import type { Header } from './logSource';

/**
 * The blocks whose headers a batch of logs needs: its two ends (the first to check it follows the indexed block, the
 * last to become the cursor) and every log's block (for its time and hash). A removed log means the chain moved
 * while it was read, so the batch is not worth its headers.
 */
export function blocksOf(logs: readonly RawLog[], from: number, to: number): Set<number> {
  const blocks = new Set<number>([from, to]);
  for (const log of logs) {
    if (log.removed) throw new ChainMoved(`a log of block ${log.blockNumber} was removed`);
    blocks.add(Number(log.blockNumber));
  }
  return blocks;
}

/**
 * A batch's logs as the events stored, once the batch is shown to be one chain with what is already indexed: its
 * first block follows the indexed one, and every log's block is the block now at its height. Otherwise the chain
 * moved between the reads (ChainMoved), and storing the batch would mix two chains.
 */
export function decodeBatch(
  logs: readonly RawLog[],
  headers: ReadonlyMap<number, Header>,
  from: number,
  cursor: IndexCursor,
): ServiceEvent[] {
  const first = headers.get(from) as Header;
  if (cursor.hash !== null && first.parentHash !== cursor.hash) {
    throw new ChainMoved(`block ${from} does not follow the indexed block ${cursor.block}`);
  }
  const events: ServiceEvent[] = [];
  for (const log of logs) {
    if (headers.get(Number(log.blockNumber))?.hash !== log.blockHash) {
      throw new ChainMoved(`block ${log.blockNumber} changed while it was read`);
    }
    const event = decodeServiceEvent(log);
    if (event) events.push(event);
  }
  return events;
}
