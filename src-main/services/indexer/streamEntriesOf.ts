import { type Address, zeroAddress } from 'viem';
import type { ServiceEvent } from '../../chain/serviceEvents';
import { compareStreamPositions } from '../../core/events/streamPosition';
import type { StreamEntry } from '../../store/indexStore';

/**
 * The launches and trades of decoded events as the event stream sends them, without going through the index: what
 * IndexStore.write stores and IndexStore.streamAfter reads back, for blocks at the head that are not stored. A launch
 * is at its own place (part 0) with its first buy right after it (part 1, the creator's buy, no referrer); a router
 * trade with the zero referrer has none. A launch's logo is not known yet (`image` null), as in a freshly indexed one.
 *
 * @example streamEntriesOf(decodeBatch(logs, headers, from, cursor), (block) => headers.get(block)?.timestamp)
 */
export function streamEntriesOf(
  events: readonly ServiceEvent[],
  timestampOf: (block: number) => number | undefined,
): StreamEntry[] {
  // The factory emits FirstBuy before Launched, in the same transaction, so both are among the same block's events.
  const firstBuys = new Map<Address, Extract<ServiceEvent, { kind: 'firstBuy' }>>();
  for (const event of events) if (event.kind === 'firstBuy') firstBuys.set(event.token, event);
  const entries: StreamEntry[] = [];
  for (const event of events) {
    if (event.kind !== 'launched' && event.kind !== 'trade') continue;
    const timestamp = timestampOf(event.block);
    if (timestamp === undefined) throw new Error(`no timestamp for block ${event.block}`);
    const at = { block: event.block, logIndex: event.logIndex };
    if (event.kind === 'trade') {
      entries.push({
        kind: 'trade',
        position: { ...at, part: 0 },
        token: event.token,
        trade: {
          ...at,
          txHash: event.txHash,
          timestamp,
          trader: event.trader,
          referrer: event.referrer === zeroAddress ? null : event.referrer,
          isBuy: event.isBuy,
          pairAmount: event.pairAmount,
          tokenAmount: event.tokenAmount,
          fee: event.fee,
        },
      });
      continue;
    }
    const { token, symbol, name, creator, pool, pair, fee, txHash } = event;
    entries.push({
      kind: 'launch',
      position: { ...at, part: 0 },
      launch: { token, symbol, name, creator, pool, pair, fee, image: null, timestamp, txHash, ...at },
    });
    const firstBuy = firstBuys.get(token);
    if (!firstBuy) continue;
    entries.push({
      kind: 'trade',
      position: { ...at, part: 1 },
      token,
      trade: {
        ...at,
        txHash,
        timestamp,
        trader: creator,
        referrer: null,
        isBuy: true,
        pairAmount: firstBuy.spent,
        tokenAmount: firstBuy.tokens,
        fee: firstBuy.siteFee,
        firstBuy: true,
      },
    });
  }
  return entries.sort((a, b) => compareStreamPositions(a.position, b.position));
}
