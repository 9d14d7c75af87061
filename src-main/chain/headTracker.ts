/** Bounds of the new-block polling interval: BSC makes a block every 0.75 s (and less soon); 3 s was the old fixed poll. */
export const MIN_POLL_MS = 250;
export const MAX_POLL_MS = 3_000;

/** How long the highest head must go unconfirmed by any node, with many lower answers since, before it is given up. */
const TOP_GIVEN_UP_AFTER_MS = 60_000;
const TOP_GIVEN_UP_AFTER_LOWER = 20;
/** New heads kept to measure the block time from their arrival. */
const ARRIVAL_WINDOW_MS = 60_000;
const ARRIVAL_SAMPLES = 64;
/** A measured block time needs this many blocks over at least this long, else the header timestamps' estimate is used. */
const MIN_MEASURED_BLOCKS = 3;
const MIN_MEASURED_MS = 1_000;
/** A chain quiet for N ms is polled at most every N / QUIET_FACTOR ms. */
const QUIET_FACTOR = 4;

/**
 * The chain's head as load-balanced nodes report it: each answer comes from some node, and nodes behind answer lower
 * heads. The tracker keeps the highest head any node reported, so a lower answer reads as a node behind, not as the
 * chain going back. Only when no node has reported that head for a minute, while many reported lower ones, is it given
 * up (the chain really went back: a devnet restarted behind the same URL).
 *
 * It also measures the block time from when new heads arrive, which sets how often new blocks are polled for.
 *
 * @example const heads = new HeadTracker(); heads.see(100); heads.see(98); heads.latest() // 100
 */
export class HeadTracker {
  private top: number | null = null;
  private topSeenAt = 0;
  private lowerSince = 0;
  private highestLower: number | null = null;
  private readonly arrivals: { block: number; at: number }[] = [];
  private hintMs: number | null = null;

  constructor(private readonly now: () => number = Date.now) {}

  /** Records a head some node reported; true when it is higher than any seen. */
  see(block: number | bigint): boolean {
    const n = Number(block);
    if (!Number.isSafeInteger(n) || n < 0) return false;
    const at = this.now();
    if (this.top === null || n > this.top) {
      this.top = n;
      this.topSeenAt = at;
      this.lowerSince = 0;
      this.highestLower = null;
      this.arrive(n, at);
      return true;
    }
    if (n === this.top) {
      this.topSeenAt = at;
      this.lowerSince = 0;
      this.highestLower = null;
      return false;
    }
    this.lowerSince++;
    this.highestLower = Math.max(this.highestLower ?? n, n);
    if (this.lowerSince >= TOP_GIVEN_UP_AFTER_LOWER && at - this.topSeenAt >= TOP_GIVEN_UP_AFTER_MS) {
      this.top = this.highestLower;
      this.topSeenAt = at;
      this.lowerSince = 0;
      this.highestLower = null;
      this.arrivals.length = 0;
    }
    return false;
  }

  /** The highest head reported (null before any). */
  latest(): number | null {
    return this.top;
  }

  /**
   * An estimate of the block time from block timestamps (milliseconds), used until enough new heads have arrived to
   * measure it: BSC's timestamps are whole seconds, so this is read over many blocks.
   */
  hintBlockTime(ms: number): void {
    if (Number.isFinite(ms) && ms > 0) this.hintMs = ms;
  }

  /** The chain's block time in milliseconds, from recent arrivals of new heads, else the timestamps' hint; null if unknown. */
  blockTimeMs(): number | null {
    const at = this.now();
    while (this.arrivals.length > 2 && (this.arrivals[0] as { at: number }).at < at - ARRIVAL_WINDOW_MS) {
      this.arrivals.shift();
    }
    const first = this.arrivals[0];
    const last = this.arrivals.at(-1);
    if (first && last && last.block - first.block >= MIN_MEASURED_BLOCKS && last.at - first.at >= MIN_MEASURED_MS) {
      return (last.at - first.at) / (last.block - first.block);
    }
    return this.hintMs;
  }

  /**
   * How often to poll for new blocks: about one block time, within MIN_POLL_MS..MAX_POLL_MS. A chain that has made
   * no block for several block times (an idle test chain, nodes that stalled) is polled less often, not at full speed.
   */
  pollMs(): number {
    const blockTime = this.blockTimeMs();
    if (blockTime === null) return MAX_POLL_MS;
    const last = this.arrivals.at(-1);
    const quiet = last ? (this.now() - last.at) / QUIET_FACTOR : 0;
    return Math.round(Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, blockTime, quiet)));
  }

  private arrive(block: number, at: number): void {
    const last = this.arrivals.at(-1);
    // The first head only starts the clock; a jump (a restart, a long outage) starts it again.
    if (last && block - last.block > ARRIVAL_SAMPLES) this.arrivals.length = 0;
    this.arrivals.push({ block, at });
    if (this.arrivals.length > ARRIVAL_SAMPLES) this.arrivals.shift();
  }
}
