/** What every one of the service's own errors may be given: the failure underneath, kept for logs. */
export interface ServiceErrorOptions {
  /** The error this one explains (a node's answer, a device's status, a file system error). Never sent to callers. */
  cause?: unknown;
}

/**
 * The base of the service's own errors (the API's, the signers', the wallet's, the link fetcher's). It carries the
 * failure underneath as the standard `cause` (ES2022), so a log can show the whole chain down to what the node or the
 * device said, while callers see only the code, message and fix the subclass gives them.
 *
 * @example throw new WalletError('SEND_FAILED', 'The node refused the transaction.', 'Check the RPC.', { cause })
 */
export class ServiceError extends Error {
  constructor(message: string, options: ServiceErrorOptions = {}) {
    // Without a cause the property is left absent rather than set to undefined, as Error itself does.
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ServiceError';
  }
}

/** How deep a cause chain is followed: a chain is a few links long, and a cycle must not loop for ever. */
const MAX_CAUSES = 8;

/**
 * An error and the causes under it, one per line, for a log: the first line is the error's stack (or message), each
 * further line the next cause's name and message. Never for a caller: it may name files, addresses and node answers.
 *
 * @example describeCauses(new ApiError('INTERNAL', 'failed', { cause: new Error('disk full') }))
 * // 'ApiError: failed\n    at …\n  caused by Error: disk full'
 */
export function describeCauses(error: unknown): string {
  const lines = [error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error)];
  const seen = new Set<unknown>([error]);
  let cause = error instanceof Error ? error.cause : undefined;
  while (cause !== undefined && !seen.has(cause) && seen.size <= MAX_CAUSES) {
    seen.add(cause);
    lines.push(`  caused by ${cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause)}`);
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  return lines.join('\n');
}
