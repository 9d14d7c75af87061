import { ServiceError, type ServiceErrorOptions } from '../../core/serviceError';

/**
 * A pass of the indexer failed, and whether trying again can mend it (Ponder's retryable/non-retryable split). The
 * follow loop backs off by the type: a retryable failure (the chain or the RPC in passing) is retried with pauses
 * that grow while nothing moves; a final one (a setting of the RPC) waits the longest pause, and is not repeated in
 * the log, since it was said once, in its own line, where it was met. Errors from elsewhere (a dropped connection, a
 * store failure) count as retryable.
 *
 * @example throw new IndexerError('the RPC has no block at or below 120 that was indexed; trying again', true);
 */
export class IndexerError extends ServiceError {
  constructor(
    message: string,
    readonly retryable: boolean,
    options?: ServiceErrorOptions,
  ) {
    super(message, options);
    this.name = 'IndexerError';
  }
}

/** The chain changed under a batch (a log's block is not the block now at that height): the batch is read again. */
export class ChainMoved extends IndexerError {
  constructor(message: string) {
    super(message, true);
    this.name = 'ChainMoved';
  }
}

/**
 * The node that answered lacks a block at or below a head already seen: it is behind (load-balanced nodes differ by a
 * block or two), not showing another chain. Retried soon and quietly; nothing is rolled back for it.
 */
export class NodeBehind extends IndexerError {
  constructor(message: string) {
    super(message, true);
    this.name = 'NodeBehind';
  }
}

/** The RPC does not serve eth_getLogs: retried only after the longest pause, since it is a setting, not a hiccup. */
export class NoLogs extends IndexerError {
  constructor(message: string, options?: ServiceErrorOptions) {
    super(message, false, options);
    this.name = 'NoLogs';
  }
}

/** Whether a failure is one that retrying cannot mend (see IndexerError); anything not typed here is retryable. */
export function isFinal(error: unknown): boolean {
  return error instanceof IndexerError && !error.retryable;
}
