import { type EIP1193RequestFn, numberToHex, type Transport } from 'viem';
import type { HeadTracker } from './headTracker';
import { saysNodeBehind } from './nodeBehind';

/** Where each state or block read takes its block parameter. */
const BLOCK_PARAM: Record<string, number> = {
  eth_call: 1,
  eth_estimateGas: 1,
  eth_createAccessList: 1,
  eth_getBalance: 1,
  eth_getCode: 1,
  eth_getTransactionCount: 1,
  eth_getStorageAt: 2,
  eth_getProof: 2,
  eth_getBlockByNumber: 0,
};
/** Reads whose block parameter may be left out, meaning the latest block. */
const LATEST_WHEN_MISSING = new Set(['eth_call', 'eth_estimateGas', 'eth_createAccessList']);

/** How long a read may wait for a node that has its block, in all; the error or null is answered after that. */
const BEHIND_BUDGET_MS = 5_000;
const MAX_BEHIND_DELAY_MS = 250;

export interface HeadPinnedOptions {
  /** Milliseconds a read may keep being asked again of nodes behind (5 s by default). */
  budgetMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

const isHexNumber = (value: unknown): value is `0x${string}` =>
  typeof value === 'string' && /^0x[0-9a-f]+$/i.test(value);

/**
 * Wraps a transport to load-balanced nodes (a free public RPC) so that no read is served by a node behind a head the
 * service has already seen. Every answer that names a block (eth_blockNumber, a block, a receipt) feeds `heads`;
 * eth_blockNumber answers the highest head seen, so a node behind never makes the chain look shorter; a read at
 * `latest` (or with no block) is pinned to that head, so a node behind cannot answer it with older state; and a read
 * pinned to a block at or below it that a node answers with "header not found", "block range extends beyond current
 * head block" or a null block is asked again, quietly, after a short pause, until a node that has the block answers
 * (for up to `budgetMs`). Subscriptions pass through unchanged.
 *
 * @example createPublicClient({ chain, transport: headPinnedTransport(http(url), new HeadTracker()) })
 */
export function headPinnedTransport<T extends Transport>(
  inner: T,
  heads: HeadTracker,
  options: HeadPinnedOptions = {},
) {
  const budgetMs = options.budgetMs ?? BEHIND_BUDGET_MS;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  return ((parameters) => {
    const base = inner(parameters);
    const request = (async (args: { method: string; params?: unknown }, requestOptions?: unknown) => {
      const { method } = args;
      const { params, pin } = pinned(method, args.params, heads.latest());
      const started = Date.now();
      for (let attempt = 0; ; attempt++) {
        const again = () => pin !== null && pin <= (heads.latest() ?? -1) && Date.now() - started < budgetMs;
        let result: unknown;
        try {
          result = await base.request({ method, params } as never, requestOptions as never);
        } catch (error) {
          if (!again() || !saysNodeBehind(error)) throw error;
          await sleep(Math.min(MAX_BEHIND_DELAY_MS, 25 * 2 ** attempt));
          continue;
        }
        observe(heads, method, result);
        if (method === 'eth_blockNumber') {
          const highest = heads.latest();
          return highest !== null && highest > Number(result) ? numberToHex(highest) : result;
        }
        if (result === null && method === 'eth_getBlockByNumber' && again()) {
          await sleep(Math.min(MAX_BEHIND_DELAY_MS, 25 * 2 ** attempt));
          continue;
        }
        return result;
      }
    }) as EIP1193RequestFn;
    return { ...base, request };
  }) as T;
}

/** The params with `latest` pinned to the head, and the block number the read is pinned to (null when none). */
function pinned(method: string, params: unknown, head: number | null): { params: unknown; pin: number | null } {
  if (!Array.isArray(params) && params !== undefined) return { params, pin: null };
  const list = [...((params as unknown[] | undefined) ?? [])];
  if (method === 'eth_getLogs') {
    const filter = list[0] as { fromBlock?: unknown; toBlock?: unknown; blockHash?: unknown } | undefined;
    if (!filter || filter.blockHash !== undefined) return { params: list, pin: null };
    const next = { ...filter };
    for (const key of ['fromBlock', 'toBlock'] as const) {
      if ((next[key] === undefined || next[key] === 'latest') && head !== null) next[key] = numberToHex(head);
    }
    list[0] = next;
    return { params: list, pin: isHexNumber(next.toBlock) ? Number(next.toBlock) : null };
  }
  const at = BLOCK_PARAM[method];
  if (at === undefined) return { params: list, pin: null };
  const tag = list[at];
  if ((tag === 'latest' || (tag === undefined && LATEST_WHEN_MISSING.has(method))) && head !== null) {
    while (list.length < at) list.push(undefined);
    list[at] = numberToHex(head);
    return { params: list, pin: head };
  }
  if (isHexNumber(tag)) return { params: list, pin: Number(tag) };
  // EIP-1898: a block named by its number or hash; a hash some node gave is a block that exists.
  if (tag && typeof tag === 'object') {
    const { blockNumber, blockHash } = tag as { blockNumber?: unknown; blockHash?: unknown };
    if (isHexNumber(blockNumber)) return { params: list, pin: Number(blockNumber) };
    if (typeof blockHash === 'string' && head !== null) return { params: list, pin: head };
  }
  return { params: list, pin: null };
}

/** Feeds the heads that an answer shows some node has. */
function observe(heads: HeadTracker, method: string, result: unknown): void {
  if (result === null || result === undefined) return;
  if (method === 'eth_blockNumber' && isHexNumber(result)) heads.see(BigInt(result));
  else if (
    method === 'eth_getBlockByNumber' ||
    method === 'eth_getBlockByHash' ||
    method === 'eth_getTransactionReceipt'
  ) {
    const number =
      (result as { number?: unknown; blockNumber?: unknown }).number ??
      (result as { blockNumber?: unknown }).blockNumber;
    if (isHexNumber(number)) heads.see(BigInt(number));
  }
}
