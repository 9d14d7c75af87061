import { type Address, BaseError, type Hex, numberToHex, type PublicClient } from 'viem';
import type { ChainContext } from '../../chain/connectChain';
import type { HeadTracker } from '../../chain/headTracker';
import { saysNodeBehind } from '../../chain/nodeBehind';
import { LAUNCHED_TOPIC, type RawLog, SERVICE_EVENT_TOPICS, TRANSFER_TOPIC } from '../../chain/serviceEvents';
import type { Logger } from '../../log/createLogger';
import { ChainMoved, NodeBehind, NoLogs } from './indexerErrors';
import { logsRefusal } from './logsRefusal';

export interface Header {
  number: number;
  hash: Hex;
  parentHash: Hex;
  timestamp: number;
}

const DEFAULT_MAX_RANGE = 2_000;
const GROW_AFTER_SUCCESSES = 3;
/** Batches after which a refused range size may be tried again (a limit on results, not blocks, may have passed). */
const CEILING_BATCHES = 200;
/**
 * Addresses named in one eth_getLogs filter at most: the launched tokens are many on a busy chain, and nodes cap the
 * filter's list (or slow down on long ones), so beyond this the same range is asked in several filters at once.
 */
export const MAX_FILTER_ADDRESSES = 1_000;
const SERVICE_AND_TRANSFER_TOPICS: Hex[] = [...SERVICE_EVENT_TOPICS, TRANSFER_TOPIC];

/**
 * The service's logs and the headers of their blocks, as the RPC will give them: eth_getLogs over block ranges that
 * halve when the RPC refuses one and grow back after a few answered, since public nodes cap ranges and answer sizes
 * in ways no setting can tell in advance.
 *
 * The launched tokens' Transfer logs come in the same requests: the filter names the tokens launched so far beside the
 * service's contracts, with Transfer among the topics. Never the Transfer topic alone: on BSC that is every BEP-20
 * transfer of the chain, thousands a block, which no node would answer over a range worth asking.
 */
export class LogSource {
  private currentRange: number;
  private readonly maxRange: number;
  private successes = 0;
  /** Below the smallest range the RPC refused, for a while: growing back into a refusal every few batches wastes calls. */
  private ceiling = { range: Number.POSITIVE_INFINITY, batchesLeft: 0 };
  private noLogsSaid = false;

  constructor(
    private readonly client: ChainContext['client'],
    private readonly addresses: Address[],
    /**
     * Over load-balanced nodes, the highest head any node reported: a block missing at or below it is a node behind.
     * Null for one node (the devnet), where a missing block is the chain going back.
     */
    private readonly heads: HeadTracker | null,
    private readonly log: Logger,
    maxRange = DEFAULT_MAX_RANGE,
    /** The tokens launched up to the indexed block, whose Transfer logs are read too (none: the service's events only). */
    private readonly tokens: () => readonly Address[] = () => [],
  ) {
    this.maxRange = Math.max(1, maxRange);
    this.currentRange = this.maxRange;
  }

  /** Block range of the next eth_getLogs. */
  get range(): number {
    return this.currentRange;
  }

  /**
   * The service's logs from `from` on, over as wide a range as the RPC accepts up to `safe`, and where that range
   * ended: the batch is as large as the RPC allows, never a fixed size it may refuse.
   */
  async read(from: number, safe: number): Promise<{ to: number; logs: RawLog[] }> {
    let to = Math.min(safe, from + this.currentRange - 1);
    let logs: RawLog[];
    for (;;) {
      try {
        logs = await this.logs(from, to);
        break;
      } catch (error) {
        // "block range extends beyond current head block": the node that answered is behind `to`, which another
        // reported; the range is fine.
        if (saysNodeBehind(error)) throw new NodeBehind(`the node that answered has no block ${to} yet`);
        // Providers refuse wide ranges or large answers in many wordings; a smaller range is the one remedy, except
        // for an RPC without eth_getLogs or one that asks to slow down.
        const refusal = logsRefusal(error);
        if (refusal === 'no-logs') throw this.noLogs(error);
        if (to === from || refusal === 'rate-limited') throw error;
        this.ceiling = { range: to - from, batchesLeft: CEILING_BATCHES };
        this.currentRange = Math.max(1, Math.floor((to - from + 1) / 2));
        this.successes = 0;
        to = from + this.currentRange - 1;
      }
    }
    if (this.ceiling.batchesLeft > 0 && --this.ceiling.batchesLeft === 0) this.ceiling.range = Number.POSITIVE_INFINITY;
    const largest = Math.min(this.maxRange, this.ceiling.range);
    if (++this.successes >= GROW_AFTER_SUCCESSES && this.currentRange < largest) {
      this.currentRange = Math.min(largest, this.currentRange * 2);
      this.successes = 0;
    }
    return { to, logs };
  }

  /**
   * The Transfer logs of the tokens launched in `logs` (a batch just read), from each launch's block to `to`: the read
   * could not name them before they existed, and a token moves in its launch's own transaction (the supply into the
   * pool, the first buy out to its recipients). Empty, without a request, when the batch launched nothing.
   */
  async launchedTransfers(logs: readonly RawLog[], to: number): Promise<RawLog[]> {
    const contracts = new Set(this.addresses.map((address) => address.toLowerCase()));
    const launches = logs.filter((log) => log.topics[0] === LAUNCHED_TOPIC && contracts.has(log.address.toLowerCase()));
    // Most batches launch nothing: the tokens known so far (all of them, on a busy chain) are looked at only when one does.
    if (launches.length === 0) return [];
    const known = new Set(this.tokens().map((token) => token.toLowerCase()));
    const launched = new Set<Address>();
    let from = Number.POSITIVE_INFINITY;
    for (const log of launches) {
      const token = `0x${(log.topics[1] ?? '').slice(26).toLowerCase()}` as Address;
      if (known.has(token)) continue;
      launched.add(token);
      from = Math.min(from, Number(log.blockNumber));
    }
    if (launched.size === 0) return [];
    return this.halving(from, to, [...launched], [TRANSFER_TOPIC]);
  }

  /**
   * A range's logs, asked again in halves while the RPC refuses it as too wide or too large: the batch's range was
   * accepted for the service's events, but new tokens' transfers (a launch moves its supply and first buy in one
   * transaction) can pass an answer-size cap the events stayed under. Halves are asked one after another, since a node
   * that caps answers is one that limits the rate too. A single block refused, or any other failure, is thrown.
   */
  private async halving(from: number, to: number, addresses: readonly Address[], topics: Hex[]): Promise<RawLog[]> {
    try {
      return await this.request(from, to, addresses, topics);
    } catch (error) {
      // The node that answered is behind `to`, as in `read`: the batch is asked again, of another node.
      if (saysNodeBehind(error)) throw new NodeBehind(`the node that answered has no block ${to} yet`);
      if (to === from || logsRefusal(error) !== null) throw error;
      const middle = from + Math.floor((to - from) / 2);
      const first = await this.halving(from, middle, addresses, topics);
      return [...first, ...(await this.halving(middle + 1, to, addresses, topics))];
    }
  }

  /**
   * The headers of a batch's blocks, all of them or none: a batch is stored with each block's time and hash, and a
   * block missing at or below the head makes the batch fail as a node behind, or on one node, as the chain moving.
   */
  async headers(blocks: Iterable<number>, head: number): Promise<Map<number, Header>> {
    const headers = new Map<number, Header>();
    await Promise.all(
      [...blocks].map(async (number) => {
        const header = await this.header(number);
        // A block at or below the head that a node answers null: that node is behind (the block is not gone), or on
        // one node, the chain went back.
        if (!header && this.heads) {
          throw new NodeBehind(`the node that answered has no block ${number} yet (the head is ${head})`);
        }
        if (!header) throw new ChainMoved(`block ${number} is gone (the chain head is ${head})`);
        headers.set(number, header);
      }),
    );
    return headers;
  }

  /** One block's header, or null where the node that answered has no such block (behind, or the chain went back). */
  async header(number: number): Promise<Header | null> {
    const block = (await this.client.request({
      method: 'eth_getBlockByNumber',
      params: [numberToHex(number), false],
    })) as { hash: Hex; parentHash: Hex; timestamp: Hex; number: Hex } | null;
    if (!block) return null;
    return { number, hash: block.hash, parentHash: block.parentHash, timestamp: Number(block.timestamp) };
  }

  private logs(from: number, to: number): Promise<RawLog[]> {
    const tokens = this.tokens();
    if (tokens.length === 0) return this.request(from, to, this.addresses, SERVICE_EVENT_TOPICS as Hex[]);
    return this.request(from, to, [...this.addresses, ...tokens], SERVICE_AND_TRANSFER_TOPICS);
  }

  /** One range's logs of these addresses and topics, in filters of at most MAX_FILTER_ADDRESSES addresses each. */
  private async request(from: number, to: number, addresses: readonly Address[], topics: Hex[]): Promise<RawLog[]> {
    if (addresses.length <= MAX_FILTER_ADDRESSES) return this.filter(from, to, addresses, topics);
    const parts: Promise<RawLog[]>[] = [];
    for (let i = 0; i < addresses.length; i += MAX_FILTER_ADDRESSES) {
      parts.push(this.filter(from, to, addresses.slice(i, i + MAX_FILTER_ADDRESSES), topics));
    }
    return (await Promise.all(parts)).flat();
  }

  private async filter(from: number, to: number, addresses: readonly Address[], topics: Hex[]): Promise<RawLog[]> {
    const client = this.client as PublicClient;
    return (await client.request(
      {
        method: 'eth_getLogs',
        params: [{ fromBlock: numberToHex(from), toBlock: numberToHex(to), address: [...addresses], topics: [topics] }],
      },
      // One transport retry (viem retries dropped connections, 5xx and rate limits, not JSON-RPC refusals): a range
      // the RPC refuses is answered by a smaller one, but a connection that dropped once says nothing about the range,
      // and halving for it would shrink the range to one block on an RPC that flaps. Anything still failing is left
      // to the indexer's own retry with backoff.
      { retryCount: 1 },
    )) as RawLog[];
  }

  /** The one line that says the RPC lacks eth_getLogs, logged once; the error the pass fails with. */
  private noLogs(error: unknown): NoLogs {
    const said = error instanceof BaseError ? error.details || error.shortMessage : String(error);
    const message = `the RPC does not serve eth_getLogs ("${said}"): launches, trades and referrals cannot be indexed; use an RPC URL that serves it`;
    if (!this.noLogsSaid) {
      this.noLogsSaid = true;
      this.log.warn(`indexer: ${message}`);
    }
    return new NoLogs(message, { cause: error });
  }
}
