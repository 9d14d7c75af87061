import type { PublicClient } from 'viem';
import type { Logger } from '../log/createLogger';
import { type HeadTracker, MAX_POLL_MS } from './headTracker';

/** Blocks back whose timestamps give the first estimate of the block time. */
const HINT_SPAN = 100;
/** A jump of more blocks than this (a long outage) is announced as its newest block only. */
const MAX_ANNOUNCED_AT_ONCE = 64;
const ERROR_LOG_EVERY_MS = 60_000;
/** The shortest pause between two looks while a block is due. */
const MIN_LOOK_AGAIN_MS = 100;

export interface FollowHeadsOptions {
  /** Subscribe to new heads (eth_subscribe over ws://) instead of polling. */
  subscribe: boolean;
  log?: Logger;
}

/**
 * Announces every new block of a chain read over an RPC URL, in order: over ws:// from `newHeads`, otherwise by polling
 * eth_blockNumber about once per block time (measured by `heads`, between 250 ms and 3 s), timed to when the next
 * block is due, so that a block is noticed within about one block time (see nextLook). The first estimate comes from
 * the last hundred blocks' timestamps; the arrival of new heads refines it. Returns the function that stops following.
 */
export function followHeads(
  client: PublicClient,
  heads: HeadTracker,
  announce: (blockNumber: bigint) => void,
  options: FollowHeadsOptions,
): () => void {
  let stopped = false;
  let lastErrorLog = Number.NEGATIVE_INFINITY;
  const failed = (error: Error) => {
    const now = Date.now();
    if (now - lastErrorLog < ERROR_LOG_EVERY_MS) return;
    lastErrorLog = now;
    options.log?.warn(`chain: ${error.message.split('\n')[0]}`);
  };

  let announced: number | null = null;
  let announcedAt = Date.now();
  /** Announces the blocks up to `head` not announced yet; true when there were some. */
  const arrived = (head: number): boolean => {
    heads.see(head);
    if (announced !== null && head <= announced) return false;
    const from = announced === null || head - announced > MAX_ANNOUNCED_AT_ONCE ? head : announced + 1;
    announced = head;
    announcedAt = Date.now();
    for (let block = from; block <= head && !stopped; block++) announce(BigInt(block));
    return true;
  };

  void hintBlockTime(client, heads).catch(() => undefined);

  if (options.subscribe) {
    const unwatch = client.watchBlockNumber({
      emitMissed: true,
      onBlockNumber: (n) => arrived(Number(n)),
      onError: failed,
    });
    return () => {
      stopped = true;
      unwatch();
    };
  }

  let timer: NodeJS.Timeout | undefined;
  const poll = async () => {
    let fresh = false;
    try {
      fresh = arrived(Number(await client.request({ method: 'eth_blockNumber' })));
    } catch (error) {
      failed(error as Error);
    }
    if (stopped) return;
    timer = setTimeout(poll, nextLook(fresh));
    timer.unref();
  };
  /**
   * About one block time between looks; on a chain making blocks, the first look comes a quarter block before the
   * next block is due and the next ones every quarter block until it is there, so a block is noticed within about a
   * quarter of a block time of reaching the RPC (or the node asked), not up to a whole one.
   */
  const nextLook = (fresh: boolean): number => {
    const interval = heads.pollMs();
    const blockTime = heads.blockTimeMs();
    if (blockTime === null || interval >= MAX_POLL_MS) return interval;
    const quarter = Math.max(MIN_LOOK_AGAIN_MS, blockTime / 4);
    const since = Date.now() - announcedAt;
    if (fresh) return Math.max(quarter, blockTime - quarter - since);
    return since < 2 * blockTime ? quarter : interval;
  };
  void poll();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}

/** The block time from the timestamps of the head and of the block HINT_SPAN before it. */
async function hintBlockTime(client: PublicClient, heads: HeadTracker): Promise<void> {
  const head = await client.getBlock({ blockTag: 'latest' });
  const span = head.number < BigInt(HINT_SPAN) ? head.number : BigInt(HINT_SPAN);
  if (span === 0n) return;
  const before = await client.getBlock({ blockNumber: head.number - span });
  heads.hintBlockTime((Number(head.timestamp - before.timestamp) * 1000) / Number(span));
}
