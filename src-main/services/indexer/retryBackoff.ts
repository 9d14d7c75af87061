import { isFinal, NodeBehind } from './indexerErrors';

/** The first pause's base: a pause is this times two to the failures in a row. */
const BASE_DELAY_MS = 250;
/** Doublings after which the pause stops growing (it reached MAX_RETRY_DELAY_MS well before). */
const DOUBLINGS = 10;
const MAX_RETRY_DELAY_MS = 30_000;
/** Every this many failures in a row is logged, whatever the time since the last line. */
const LOG_EVERY_FAILURES = 10;
const FAILURE_LOG_EVERY_MS = 60_000;
/** Pause before asking again after a node behind answered; a node catches up within a block or two. */
export const BEHIND_RETRY_MS = 150;
/** Nodes behind for longer than this are a failure like any other (logged, /status's last error). */
const BEHIND_QUIET_MS = 30_000;
/**
 * The most blocks short of the head a pass aims after nodes behind refused it: one block further back every second
 * retry. A balancer that deals requests out in strict turn to nodes a few blocks apart can refuse every pass that
 * needs the newest block twice (its logs, then its timestamp) for as long as the pass's requests line up the same
 * way; a pass that stops short reads only blocks every node has, and the next one aims at the head again.
 */
const MAX_BEHIND_STEP_BACK = 8;

/**
 * What to do after a failed pass: ask again shortly and quietly past a node behind, or pause, with a line in the log
 * or without (one already said, or said too recently).
 */
export type NextTry = { kind: 'past-node-behind'; delayMs: number } | { kind: 'pause'; delayMs: number; log: boolean };

/**
 * When the indexer tries again after a failed pass, decided by the failure's type (see IndexerError) and by what the
 * pass got done, so that a flapping RPC neither leaves the index minutes behind nor floods the log.
 */
export class RetryBackoff {
  private failures = 0;
  private lastFailureLog = Number.NEGATIVE_INFINITY;
  /** Since when the passes have met only nodes behind (null: the last pass did not). */
  private behindSince: number | null = null;
  /** Retries in a row after a node behind answered (see the indexer's retryPastNodeBehind). */
  private behind = 0;

  /** Retries in a row after a node behind answered. */
  get behindRetries(): number {
    return this.behind;
  }

  /** How many blocks short of the head the next pass aims, after nodes behind refused the head (see MAX_BEHIND_STEP_BACK). */
  get stepBack(): number {
    return Math.min(MAX_BEHIND_STEP_BACK, Math.floor(this.behind / 2));
  }

  succeeded(): void {
    this.failures = 0;
    this.behindSince = null;
    this.behind = 0;
  }

  /**
   * The next try after a failure. The pauses grow only while passes store nothing and the RPC cannot even tell the
   * head: an RPC that fails now and then but lets a pass move the cursor (`moved`), or answers the head (`headRead`)
   * and fails a later read, is retried within a second, else a flapping RPC would leave the index minutes behind a
   * head it can read. A final error is a setting, not a hiccup: it waits the longest pause.
   *
   * @example const next = backoff.failed(error, { moved: cursor > before, headRead: true });
   */
  failed(error: unknown, pass: { moved: boolean; headRead: boolean }): NextTry {
    if (error instanceof NodeBehind) {
      // An ordinary moment of load-balanced nodes: asked again soon, without a line in the log.
      this.behindSince ??= Date.now();
      if (Date.now() - this.behindSince < BEHIND_QUIET_MS) {
        this.behind++;
        return { kind: 'past-node-behind', delayMs: BEHIND_RETRY_MS };
      }
    } else this.behindSince = null;
    if (pass.moved) this.failures = 1;
    else this.failures = pass.headRead ? Math.min(this.failures + 1, 2) : this.failures + 1;
    const final = isFinal(error);
    // Past the last doubling: the longest pause, which a failure after it keeps unless a pass gets further.
    if (final) this.failures = DOUBLINGS + 1;
    const delayMs = Math.min(MAX_RETRY_DELAY_MS, BASE_DELAY_MS * 2 ** Math.min(this.failures, DOUBLINGS));
    // Every tenth failure in a row, and otherwise at most one line a minute: an RPC that flaps while the index
    // moves would log a line on each of its failures. A final error was said once, in its own line.
    const now = Date.now();
    const log =
      !final && (this.failures % LOG_EVERY_FAILURES === 0 || now - this.lastFailureLog >= FAILURE_LOG_EVERY_MS);
    if (log) this.lastFailureLog = now;
    return { kind: 'pause', delayMs, log };
  }
}
