import type { HeadTracker } from '../../chain/headTracker';
import type { Logger } from '../../log/createLogger';
import type { IndexCursor } from '../../store/indexStore';
import { IndexerError, NodeBehind } from './indexerErrors';
import type { IndexWriter } from './indexWriter';
import type { LogSource } from './logSource';
import type { TradePrices } from './tradePrices';

/** What checking the indexed block against the chain reads and, after a reorganization, rolls back. */
export interface CursorCheckParts {
  index: IndexWriter;
  logs: Pick<LogSource, 'header'>;
  prices: Pick<TradePrices, 'forget'>;
  /** Over load-balanced nodes, the highest head any node reported; null for one node (the devnet). */
  heads: HeadTracker | null;
  /** Where a reorganization deeper than the kept hashes starts the index again. */
  fromBlock: number;
  log: Logger;
  onRollBack?: (cursor: IndexCursor) => void;
}

/**
 * Checks that the indexed block is still the chain's; if not, rolls back to where the two chains agree, so no event of
 * an orphaned block is served. Over load-balanced nodes only a node that has reached a kept block and holds another
 * one there shows a reorganization: a head below the indexed block, or a kept block a node answers null, is a node
 * behind, asked again without rolling anything back. On one node (the devnet), a head below the indexed block is the
 * chain going back.
 *
 * @example await chain.consistentRead(() => checkCursor(parts, head));
 */
export async function checkCursor(parts: CursorCheckParts, head: number): Promise<void> {
  const { index, logs, heads } = parts;
  const cursor = index.cursor;
  if (cursor.hash === null) return;
  const behind = (block: number) => new NodeBehind(`the node that answered has no block ${block} yet`);
  if (cursor.block <= head) {
    const header = await logs.header(cursor.block);
    if (header?.hash === cursor.hash) return;
    if (!header && heads) throw behind(cursor.block);
  } else if (heads) return;
  const was = cursor.block;
  let asked = 0;
  let answered = 0;
  for (const kept of index.recentHashes()) {
    if (kept.number > head || kept.number >= was) continue;
    asked++;
    const now = await logs.header(kept.number);
    if (!now && heads) throw behind(kept.number);
    if (now) answered++;
    if (now?.hash === kept.hash) {
      index.rollBack(kept.number, kept.hash, now.timestamp);
      parts.prices.forget();
      parts.log.warn(`indexer: the chain was reorganized after block ${kept.number}; blocks up to ${was} read again`);
      parts.onRollBack?.(index.cursor);
      return;
    }
  }
  // An RPC that answers no block at all is failing, not showing another chain: nothing is thrown away for it.
  if (asked > 0 && answered === 0) {
    throw new IndexerError(
      `the RPC has no block at or below ${Math.min(head, was - 1)} that was indexed; trying again`,
      true,
    );
  }
  index.rollBack(parts.fromBlock - 1, null, null);
  parts.prices.forget();
  parts.log.warn(`indexer: the chain was reorganized deeper than the kept block hashes; indexing again from the start`);
  parts.onRollBack?.(index.cursor);
}
