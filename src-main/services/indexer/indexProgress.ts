import type { Logger } from '../../log/createLogger';

const RATE_WINDOW_MS = 10_000;

/**
 * How fast the index moves, for /status and for the backfill's lines in the log: a backfill over a public node can
 * take minutes, and an operator needs to see it move and when it ends.
 */
export class IndexProgress {
  private blocks = 0;
  private events = 0;
  private readonly samples: { at: number; block: number; events: number }[] = [];
  private lastProgressLog = 0;
  private backfillStart: { at: number; block: number } | null = null;

  constructor(
    private readonly log: Logger,
    /** How often to log progress while backfilling (milliseconds). */
    private readonly everyMs = 5_000,
  ) {}

  /** Blocks indexed since this run started. */
  get blocksDone(): number {
    return this.blocks;
  }

  /** Indexing rate over the last few seconds. */
  rates(): { blocksPerSecond: number; eventsPerSecond: number } {
    const samples = this.samples;
    const first = samples[0];
    const last = samples[samples.length - 1];
    const seconds = first && last && last.at > first.at ? (last.at - first.at) / 1000 : 0;
    return {
      blocksPerSecond: seconds > 0 && first && last ? Math.round((last.block - first.block) / seconds) : 0,
      eventsPerSecond: seconds > 0 && first && last ? Math.round((last.events - first.events) / seconds) : 0,
    };
  }

  /** Counts a stored batch that took the index to `block`. */
  stored(blocks: number, events: number, block: number): void {
    this.blocks += blocks;
    this.events += events;
    const now = Date.now();
    const samples = this.samples;
    samples.push({ at: now, block, events: this.events });
    while (samples.length > 2 && (samples[0] as { at: number }).at < now - RATE_WINDOW_MS) samples.shift();
  }

  /**
   * Says a backfill starts, the first time a catch-up is more than one batch (`range`) behind. The first catch-up of
   * a fresh index (`fresh`) is a backfill however short, so its start and end are in the log.
   */
  startBackfill(indexed: number, safe: number, range: number, fresh: boolean): void {
    if (this.backfillStart || !(safe - indexed > range || fresh)) return;
    this.backfillStart = { at: Date.now(), block: indexed };
    this.log.info(`indexer: backfilling blocks ${indexed + 1} to ${safe}`);
  }

  /** A line on the backfill's progress, at most every `everyMs`. */
  report(indexed: number, safe: number): void {
    if (!this.backfillStart) return;
    const now = Date.now();
    if (now - this.lastProgressLog < this.everyMs) return;
    this.lastProgressLog = now;
    const total = safe - this.backfillStart.block;
    const done = indexed - this.backfillStart.block;
    const { blocksPerSecond, eventsPerSecond } = this.rates();
    this.log.info(
      `indexer: backfill ${Math.floor((done / Math.max(1, total)) * 100)}%, block ${indexed} of ${safe} ` +
        `(${safe - indexed} left, ${blocksPerSecond} blocks/s, ${eventsPerSecond} events/s)`,
    );
  }

  /** Says a backfill under way has reached `safe`, with how long it took. */
  caughtUp(indexed: number, safe: number): void {
    if (!this.backfillStart || indexed < safe) return;
    const seconds = (Date.now() - this.backfillStart.at) / 1000;
    const blocks = indexed - this.backfillStart.block;
    this.log.info(`indexer: caught up at block ${indexed} (${blocks} blocks in ${seconds.toFixed(1)} s)`);
    this.backfillStart = null;
  }
}
