import type { Address, Hex } from 'viem';
import { type Logger, silentLogger } from '../../log/createLogger';
import type { ListedLaunch, StreamEntry } from '../../store/indexStore';
import { CoalescedRun } from '../coalescedRun';
import { blocksOf, decodeBatch } from './decodeBatch';
import { ChainMoved, isFinal, NodeBehind } from './indexerErrors';
import type { IndexerSource } from './indexerOptions';
import { LogSource } from './logSource';
import { streamEntriesOf } from './streamEntriesOf';

/** A block at the head, above the confirmed (indexed) block, that holds launches or trades. */
export interface HeadBlock {
  number: number;
  hash: Hex;
  /** Its launches and trades, in chain order, as the event stream sends them. */
  entries: readonly StreamEntry[];
}

/** A block and its hash. */
interface BlockRef {
  block: number;
  hash: Hex;
}

export interface HeadChainOptions {
  /** The indexed (confirmed) block and its hash: the head chain is the chain right above it. */
  confirmed: () => { block: number; hash: Hex | null };
  /** Called after the blocks at the head changed: new ones, or some dropped by a reorganization. */
  onChange: () => void;
  /**
   * Told the launches of the blocks just read at the head, once they are kept (after onChange): what a service that
   * expects bots to buy them at once gets ready (their pools read) while the event is on its way to them.
   */
  onLaunches?: (launches: readonly ListedLaunch[]) => void;
  log?: Logger;
  /**
   * Most blocks followed above the confirmed one. Further behind (the index catching up after an outage or at its
   * first start), the head is not followed until the index is near it again.
   */
  maxSpan?: number;
  /** How often to look at the head when the chain does not announce blocks (milliseconds). */
  pollMs?: number;
}

const DEFAULT_MAX_SPAN = 64;
/** A node behind, or a chain that moved under a read: looked at again this soon. */
const RETRY_MS = 250;
/** After a failure that retrying cannot mend (an RPC without eth_getLogs, which the indexer reports): a long pause. */
const FINAL_PAUSE_MS = 60_000;

/**
 * The blocks at the chain head that the index has not confirmed yet, read as soon as each is announced: their logs
 * with the indexer's own reads and decoding (LogSource, decodeBatch), as the launches and trades the event stream
 * sends. Nothing of them is stored: the index keeps only confirmed blocks. The head chain always starts right above
 * the indexed block and is one chain with it (each read checks its first block's parent); a block whose parent is not
 * the head chain's newest block is a reorganization, and what lies above the confirmed block is read again.
 *
 * @example const head = new HeadChain(chain, { confirmed: () => indexer.indexedHead(), onChange: () => stream.notify() });
 */
export class HeadChain {
  private readonly logs: LogSource;
  private readonly run = new CoalescedRun(() => this.pass());
  private readonly log: Logger;
  private readonly maxSpan: number;
  /** The confirmed block the kept blocks are above, and the newest block read (null: none above it). */
  private base: BlockRef | null = null;
  private tip: BlockRef | null = null;
  private kept: HeadBlock[] = [];
  /** The block the chain announced last, read on the next pass instead of asking the node for its head. */
  private announced: number | null = null;
  private unsubscribe: (() => void) | null = null;
  private pollTimer: NodeJS.Timeout | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private lastErrorLog = 0;
  private pausedUntil = 0;

  constructor(
    private readonly source: Pick<IndexerSource, 'client' | 'consistentRead' | 'onBlock' | 'heads' | 'addresses'>,
    private readonly options: HeadChainOptions,
  ) {
    const { factory, router } = source.addresses;
    if (!factory || !router) throw new Error('the head chain needs the factory and the router deployed');
    this.log = options.log ?? silentLogger();
    this.maxSpan = options.maxSpan ?? DEFAULT_MAX_SPAN;
    // The indexer already says what is wrong with the RPC's eth_getLogs; the head chain reads the same RPC.
    this.logs = new LogSource(source.client, [factory, router], source.heads ?? null, silentLogger());
  }

  /** Starts following: on every announced block, after every stored batch (`poke`), and every `pollMs`. */
  start(): void {
    this.unsubscribe =
      this.source.onBlock?.((block) => {
        this.announced = Number(block);
        this.poke();
      }) ?? null;
    this.pollTimer = setInterval(() => this.poke(), this.options.pollMs ?? 4_000);
    this.pollTimer.unref();
    this.poke();
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    if (this.pollTimer) clearInterval(this.pollTimer);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    await this.run.stop();
  }

  /** Looks at the head now (coalesced with a look under way). */
  poke(): void {
    this.run.poke();
  }

  /** The blocks at the head holding launches or trades, above `confirmed`, oldest first. */
  blocksAbove(confirmed: number): readonly HeadBlock[] {
    const first = this.kept.findIndex((block) => block.number > confirmed);
    return first < 0 ? [] : first === 0 ? this.kept : this.kept.slice(first);
  }

  /**
   * The launch of `token` in a block held at the head, newest first: what a bot that heard it on the event stream
   * asks about next, known here before the index confirms it. Null when no held block launched it.
   */
  launchOf(token: Address): ListedLaunch | null {
    const wanted = token.toLowerCase();
    for (let i = this.kept.length - 1; i >= 0; i--) {
      for (const entry of (this.kept[i] as HeadBlock).entries) {
        if (entry.kind === 'launch' && entry.launch.token.toLowerCase() === wanted) return entry.launch;
      }
    }
    return null;
  }

  private async pass(): Promise<boolean> {
    try {
      await this.follow();
      return true;
    } catch (error) {
      if (this.run.isStopped) return false;
      if (isFinal(error)) {
        this.pausedUntil = Date.now() + FINAL_PAUSE_MS;
        return false;
      }
      if (!(error instanceof NodeBehind || error instanceof ChainMoved)) this.warn(error);
      if (this.retryTimer) clearTimeout(this.retryTimer);
      this.retryTimer = setTimeout(() => this.poke(), RETRY_MS);
      this.retryTimer.unref();
      return false;
    }
  }

  private async follow(): Promise<void> {
    if (Date.now() < this.pausedUntil) return;
    const cursor = this.options.confirmed();
    if (cursor.hash === null) return this.commit(null, null, []);
    const confirmed = { block: cursor.block, hash: cursor.hash };
    this.rebase(confirmed);
    const head = this.announced ?? Number(await this.source.client.request({ method: 'eth_blockNumber' }));
    this.announced = null;
    // Nothing above the confirmed block, or too much: the index confirms every block as it comes, or is catching up.
    if (head <= confirmed.block || head - confirmed.block > this.maxSpan) return this.commit(confirmed, null, []);
    const tip = this.tip;
    if (tip && tip.block >= head) {
      // No new block: is the newest one read still the chain's (a reorganization to the same height, or lower)?
      const header = await this.source.consistentRead(() => this.logs.header(tip.block));
      if (header?.hash === tip.hash) return;
      // Over load-balanced nodes, a node without the block is behind; on one node, the chain went back.
      if (!header && this.source.heads) throw new NodeBehind(`the node that answered has no block ${tip.block} yet`);
      return this.readAbove(confirmed, head);
    }
    try {
      const read = await this.read(tip ?? confirmed, head);
      this.commit(confirmed, read.tip, [...this.kept, ...read.blocks]);
      this.announceLaunches(read.blocks);
    } catch (error) {
      // The newest block read is not the parent of the next one: the head was reorganized.
      if (!(error instanceof ChainMoved) || !tip) throw error;
      await this.readAbove(confirmed, head);
    }
  }

  /**
   * Reads every block above the confirmed one again (after a reorganization at the head). Blocks that did not change
   * come back with the same hashes, so only what the reorganization replaced differs. If the confirmed block itself is
   * not the chain's any more (ChainMoved again), what is kept stays until the indexer rolls back, and nothing is added.
   */
  private async readAbove(confirmed: BlockRef, head: number): Promise<void> {
    const read = await this.read(confirmed, head);
    this.commit(confirmed, read.tip, read.blocks);
    this.announceLaunches(read.blocks);
  }

  private announceLaunches(blocks: readonly HeadBlock[]): void {
    const launches: ListedLaunch[] = [];
    for (const block of blocks) {
      for (const entry of block.entries) if (entry.kind === 'launch') launches.push(entry.launch);
    }
    if (launches.length > 0) this.options.onLaunches?.(launches);
  }

  /** The launches and trades of the blocks after `link` up to `head`, checked to be one chain with `link`. */
  private async read(link: BlockRef, head: number): Promise<{ tip: BlockRef; blocks: HeadBlock[] }> {
    const blocks: HeadBlock[] = [];
    let at = link;
    while (at.block < head) {
      const previous = at;
      const from = previous.block + 1;
      at = await this.source.consistentRead(async () => {
        const { to, logs } = await this.logs.read(from, head);
        const headers = await this.logs.headers(blocksOf(logs, from, to), head);
        const events = decodeBatch(logs, headers, from, previous);
        const entries = streamEntriesOf(events, (block) => headers.get(block)?.timestamp);
        for (const entry of entries) {
          const number = entry.position.block;
          const last = blocks.at(-1);
          if (last?.number === number) (last.entries as StreamEntry[]).push(entry);
          else blocks.push({ number, hash: headers.get(number)?.hash as Hex, entries: [entry] });
        }
        return { block: to, hash: headers.get(to)?.hash as Hex };
      });
    }
    return { tip: at, blocks };
  }

  /**
   * Keeps what is still above the confirmed block when the index moved: its blocks there are the head chain's own
   * when the block it confirmed is one the head chain holds with the same hash (or below what was read); otherwise
   * everything kept is dropped and read again.
   */
  private rebase(confirmed: BlockRef): void {
    const { base, tip } = this;
    if (base && base.block === confirmed.block && base.hash === confirmed.hash) return;
    const held = this.kept.find((block) => block.number === confirmed.block);
    const kept =
      base &&
      tip &&
      confirmed.block > base.block &&
      confirmed.block < tip.block &&
      (!held || held.hash === confirmed.hash);
    if (kept) this.commit(confirmed, tip, this.blocksAbove(confirmed.block).slice());
    else this.commit(confirmed, null, []);
  }

  private commit(base: BlockRef | null, tip: BlockRef | null, kept: HeadBlock[]): void {
    const changed = kept.length !== this.kept.length || kept.some((block, i) => block.hash !== this.kept[i]?.hash);
    this.base = base;
    this.tip = tip;
    this.kept = kept;
    if (changed) this.options.onChange();
  }

  private warn(error: unknown): void {
    const now = Date.now();
    if (now - this.lastErrorLog < 60_000) return;
    this.lastErrorLog = now;
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    this.log.warn(`head events: ${message}; trying again`);
  }
}
