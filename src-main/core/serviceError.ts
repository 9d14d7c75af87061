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
 * An error and the causes under it, for a log: the error's name and message with its stack frames, then one line per
 * cause down the chain. Never for a caller: it may name files, addresses and node answers. An error that carries a
 * `shortMessage` (viem's) is shown by it and its `details`: its full message repeats the request and the RPC URL,
 * which may hold an API key.
 *
 * @example describeCauses(new ApiError('INTERNAL', 'failed', { cause: new Error('disk full') }))
 * // 'ApiError: failed\n    at …\n  caused by Error: disk full'
 */
export function describeCauses(error: unknown): string {
  const frames = error instanceof Error ? (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line)) : [];
  const lines = [summary(error), ...frames];
  const seen = new Set<unknown>([error]);
  let cause = error instanceof Error ? error.cause : undefined;
  while (cause !== undefined && !seen.has(cause) && seen.size <= MAX_CAUSES) {
    seen.add(cause);
    lines.push(`  caused by ${summary(cause)}`);
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  return lines.join('\n');
}

/** One line for one error: its name and message, the short form where there is one. */
function summary(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { shortMessage, details } = error as { shortMessage?: unknown; details?: unknown };
  if (typeof shortMessage !== 'string') return `${error.name}: ${error.message}`;
  return `${error.name}: ${shortMessage}${typeof details === 'string' && details !== '' ? ` (${details})` : ''}`;
}
