/** Why `npm run deploy` stopped; the code is stable (tests read it), the message and the fix are for the person. */
export type DeployErrorCode =
  | 'USAGE'
  | 'NO_KEY'
  | 'RPC_UNREACHABLE'
  | 'WRONG_CHAIN'
  | 'RECORD_EXISTS'
  | 'OUT_NOT_WRITABLE'
  | 'BAD_EXCHANGE_FILE'
  | 'EXCHANGE_MISMATCH'
  | 'SIGNER_FAILED'
  | 'INSUFFICIENT_BALANCE'
  | 'NOT_CONFIRMED'
  | 'SEND_FAILED'
  | 'REVERTED'
  | 'NO_RECEIPT'
  | 'CODE_MISMATCH'
  | 'WIRING_MISMATCH'
  | 'WRITE_FAILED';

export class DeployError extends Error {
  override readonly name = 'DeployError';

  constructor(
    readonly code: DeployErrorCode,
    message: string,
    readonly fix: string,
    options: { cause?: unknown } = {},
  ) {
    super(message, options);
  }
}

/** The first line of an error's own words (viem's shortMessage where there is one), for a message a person reads. */
export function reasonOf(cause: unknown): string {
  if (cause instanceof Error) {
    const short = (cause as { shortMessage?: string }).shortMessage ?? cause.message;
    return short.split('\n')[0] ?? short;
  }
  return String(cause);
}
