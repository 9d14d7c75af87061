import { type Chain, createPublicClient, http, type PublicClient, webSocket } from 'viem';
import type { Logger } from '../log/createLogger';
import { followHeads } from './followHeads';
import { headPinnedTransport } from './headPinnedTransport';
import { HeadTracker } from './headTracker';
import { politeFetch } from './politeFetch';

export interface RpcClient {
  client: PublicClient;
  /** The highest head the RPC's nodes reported and the measured block time. */
  heads: HeadTracker;
  /** How new blocks are noticed: polled about once per block time, or subscribed to over ws://. */
  newBlocks: 'poll' | 'newHeads';
  /** Called on every new block, in order. Returns the function that unsubscribes. */
  onBlock(listener: (blockNumber: bigint) => void): () => void;
  close(): void;
}

export interface RpcClientOptions {
  /** How long one RPC request may take before it counts as failed (viem's 10 s by default). */
  timeoutMs?: number;
  log?: Logger;
}

/**
 * A client of a chain behind an RPC URL, as free public endpoints really behave: a 429 slows every request down
 * (politeFetch), requests made together go in one JSON-RPC batch (the indexer asks for many block headers at once),
 * no read is answered by a node behind a head already seen (headPinnedTransport), and new blocks are noticed within
 * about one block time (followHeads): a ws:// or wss:// URL subscribes to new heads, over HTTP they are polled.
 */
export function rpcClient(chain: Chain, url: string, options: RpcClientOptions = {}): RpcClient {
  const subscribes = /^wss?:\/\//i.test(url);
  const timeout = options.timeoutMs ? { timeout: options.timeoutMs } : {};
  const log = options.log ? { log: options.log } : {};
  const transport = subscribes
    ? webSocket(url, { retryCount: 1, ...timeout })
    : http(url, { retryCount: 1, batch: { batchSize: 50, wait: 0 }, fetchFn: politeFetch(log), ...timeout });
  const heads = new HeadTracker();
  const client = createPublicClient({ chain, transport: headPinnedTransport(transport, heads) }) as PublicClient;
  const listeners = new Set<(blockNumber: bigint) => void>();
  const unfollow = followHeads(
    client,
    heads,
    (n) => {
      for (const listener of listeners) listener(n);
    },
    { subscribe: subscribes, ...log },
  );
  return {
    client,
    heads,
    newBlocks: subscribes ? 'newHeads' : 'poll',
    onBlock(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: unfollow,
  };
}
