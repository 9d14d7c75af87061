import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the stand-in behaves; everything off by default (then it only forwards). */
export interface PublicRpcOptions {
  /** Widest eth_getLogs block range answered; wider ones get "exceed maximum block range: N" (-32000). */
  maxLogRange?: number;
  /** Most logs one eth_getLogs may return; more get -32005 "query returned more than N results". */
  maxLogResults?: number;
  /** An endpoint without eth_getLogs: `not-found` answers -32601 "method not found", `disabled` -32000. */
  refuseLogs?: 'not-found' | 'disabled';
  /** Blocks of state kept: reads at an older block answer "missing trie node" (a pruned node keeps 128). */
  stateWindow?: number;
  /** HTTP requests per second answered; the rest get 429 with Retry-After. */
  requestsPerSecond?: number;
  /** The Retry-After of a 429, in seconds (1 by default). */
  retryAfterSeconds?: number;
  /** Load-balanced nodes 0..lag blocks behind the real head; each HTTP request lands on one (see `assign`). */
  lag?: number;
  /**
   * How a request picks its node: `rotation` (the default) takes the next in strict turn, shared by every request,
   * which can line one client's periodic request up with the same node every time (the worst case); `random` picks
   * any, as most load balancers do.
   */
  assign?: 'rotation' | 'random';
  /**
   * BSC's fast finality: each node answers the `finalized` tag as its head minus this many blocks. Unset, the tag is
   * refused ("finalized block not found"), as by a node without finality.
   */
  finalized?: number;
  /** Receipts of a mined transaction answer null this many times before the receipt. */
  nullReceipts?: number;
}

interface Call {
  jsonrpc: '2.0';
  id: unknown;
  method: string;
  params?: unknown[];
}

interface Answer {
  jsonrpc: '2.0';
  id: unknown;
  result?: unknown;
  error?: { code: number; message: string };
}

/** Methods that read state at a block, and where their block parameter sits. */
const STATE_READS: Record<string, number> = {
  eth_call: 1,
  eth_getBalance: 1,
  eth_getCode: 1,
  eth_getTransactionCount: 1,
  eth_getStorageAt: 2,
  eth_estimateGas: 1,
};

const hex = (n: number) => `0x${n.toString(16)}`;

/**
 * A stand-in for a free public BSC endpoint, as a JSON-RPC proxy on 127.0.0.1 in front of a devnet's RPC: capped
 * eth_getLogs (by range and by result count, with the public nodes' error texts) or none at all, no state older than a
 * window, 429 with Retry-After under load, load-balanced nodes whose heads lag the real one by a few blocks (each HTTP
 * request lands on the next node in rotation; the node answers its own head for `latest` and "header not found" for a
 * block above it), and receipts that stay null for a while after mining. Options change per test with `set`.
 */
export async function publicRpc(target: string, initial: PublicRpcOptions = {}) {
  let options: PublicRpcOptions = { ...initial };
  let turn = 0;
  const recent: number[] = [];
  const receiptAsks = new Map<string, number>();
  const counts = {
    requests: 0,
    limited: 0,
    calls: new Map<string, number>(),
    refused: new Map<string, number>(),
    /** Every eth_getLogs filter asked, as sent (addresses, range, topics). */
    logFilters: [] as { address?: string | string[]; fromBlock?: string; toBlock?: string }[],
  };

  const forward = async (body: unknown): Promise<unknown> => {
    const answer = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return answer.json();
  };
  const forwardOne = async (call: Call, params = call.params): Promise<Answer> =>
    ({ ...((await forward({ ...call, params })) as Answer), id: call.id }) as Answer;
  const fail = (call: Call, code: number, message: string): Answer => {
    counts.refused.set(call.method, (counts.refused.get(call.method) ?? 0) + 1);
    return { jsonrpc: '2.0', id: call.id, error: { code, message } };
  };

  /**
   * A block parameter as a number on this node (`latest` and friends are its head, `finalized` below it), null for a
   * hash or none, or 'unfinalized' when the node answers no `finalized` block.
   */
  const blockOf = (tag: unknown, nodeHead: number): number | null | 'unfinalized' => {
    if (tag === 'finalized') {
      return options.finalized === undefined ? 'unfinalized' : Math.max(0, nodeHead - options.finalized);
    }
    if (tag === undefined || tag === 'latest' || tag === 'pending' || tag === 'safe') return nodeHead;
    if (tag === 'earliest') return 0;
    if (typeof tag === 'string' && /^0x[0-9a-f]+$/i.test(tag)) return Number(tag);
    return null;
  };

  async function answerCall(call: Call, realHead: number, nodeHead: number): Promise<Answer> {
    const params = [...(call.params ?? [])];
    counts.calls.set(call.method, (counts.calls.get(call.method) ?? 0) + 1);
    const numberOf = (tag: unknown): number | null | Answer => {
      const block = blockOf(tag, nodeHead);
      return block === 'unfinalized' ? fail(call, -32000, 'finalized block not found') : block;
    };
    if (call.method === 'eth_blockNumber') return { jsonrpc: '2.0', id: call.id, result: hex(nodeHead) };

    if (call.method === 'eth_getLogs') {
      counts.logFilters.push({ ...(params[0] as object) });
      if (options.refuseLogs === 'not-found') {
        return fail(call, -32601, 'the method eth_getLogs does not exist/is not available');
      }
      if (options.refuseLogs === 'disabled') return fail(call, -32000, 'eth_getLogs is disabled');
      const filter = { ...(params[0] as Record<string, unknown>) };
      if (filter.blockHash === undefined) {
        const fromBlock = numberOf(filter.fromBlock);
        const toBlock = numberOf(filter.toBlock);
        if (typeof fromBlock === 'object' && fromBlock !== null) return fromBlock;
        if (typeof toBlock === 'object' && toBlock !== null) return toBlock;
        const from = fromBlock ?? nodeHead;
        const to = toBlock ?? nodeHead;
        if (to > nodeHead) return fail(call, -32000, 'block range extends beyond current head block');
        if (options.maxLogRange !== undefined && to - from + 1 > options.maxLogRange) {
          return fail(call, -32000, `exceed maximum block range: ${options.maxLogRange}`);
        }
        filter.fromBlock = hex(from);
        filter.toBlock = hex(to);
      }
      const answer = await forwardOne(call, [filter]);
      const max = options.maxLogResults;
      if (max !== undefined && Array.isArray(answer.result) && answer.result.length > max) {
        return fail(call, -32005, `query returned more than ${max} results`);
      }
      return answer;
    }

    const at = STATE_READS[call.method];
    if (at !== undefined) {
      const block = numberOf(params[at]);
      if (typeof block === 'object' && block !== null) return block;
      if (block !== null) {
        if (block > nodeHead) return fail(call, -32000, 'header not found');
        if (options.stateWindow !== undefined && block < realHead - options.stateWindow) {
          return fail(call, -32000, `missing trie node ${'0'.repeat(64)} (path ) state is not available`);
        }
        params[at] = hex(block);
      }
      return forwardOne(call, params);
    }

    if (call.method === 'eth_getBlockByNumber') {
      const block = numberOf(params[0]);
      if (typeof block === 'object' && block !== null) return block;
      // A node answers null for a block it has not seen yet.
      if (block !== null && block > nodeHead) return { jsonrpc: '2.0', id: call.id, result: null };
      if (block !== null) params[0] = hex(block);
      return forwardOne(call, params);
    }

    if (call.method === 'eth_getTransactionReceipt') {
      const answer = await forwardOne(call);
      const receipt = answer.result as { blockNumber?: string } | null;
      if (!receipt) return answer;
      const hash = String(params[0]).toLowerCase();
      const asked = (receiptAsks.get(hash) ?? 0) + 1;
      receiptAsks.set(hash, asked);
      if (asked <= (options.nullReceipts ?? 0) || Number(receipt.blockNumber) > nodeHead) {
        return { jsonrpc: '2.0', id: call.id, result: null };
      }
      return answer;
    }

    return forwardOne(call);
  }

  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    counts.requests += 1;
    const now = Date.now();
    while (recent.length > 0 && (recent[0] as number) <= now - 1000) recent.shift();
    if (options.requestsPerSecond !== undefined && recent.length >= options.requestsPerSecond) {
      counts.limited += 1;
      response
        .writeHead(429, { 'content-type': 'application/json', 'retry-after': String(options.retryAfterSeconds ?? 1) })
        .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32005, message: 'Too Many Requests' } }));
      return;
    }
    recent.push(now);
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Call | Call[];
      const realHead = Number(((await forward({ jsonrpc: '2.0', id: 0, method: 'eth_blockNumber' })) as Answer).result);
      // Each HTTP request (a batch included) lands on one node.
      const nodes = (options.lag ?? 0) + 1;
      const lag = options.assign === 'random' ? Math.floor(Math.random() * nodes) : turn++ % nodes;
      const nodeHead = Math.max(0, realHead - lag);
      const answer = Array.isArray(body)
        ? await Promise.all(body.map((call) => answerCall(call, realHead, nodeHead)))
        : await answerCall(body, realHead, nodeHead);
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    } catch {
      request.socket.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Replaces the options (unset ones go back to off) and starts a new second for the request limit. */
    set(next: PublicRpcOptions) {
      options = { ...next };
      recent.length = 0;
    },
    /** HTTP requests seen, those answered 429, JSON-RPC calls by method, calls refused by method, getLogs filters. */
    counts,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export type PublicRpc = Awaited<ReturnType<typeof publicRpc>>;
