import { ServiceError, type ServiceErrorOptions } from '../core/serviceError';

/** Why the app could not sign or send what the person asked; `code` is stable, `message` and `fix` are for people. */
export type WalletErrorCode =
  | 'INVALID_INPUT'
  | 'WRONG_CHAIN'
  | 'UNKNOWN_CONTRACT'
  | 'UNKNOWN_MESSAGE'
  | 'CHALLENGE_MISMATCH'
  | 'NOT_PREPARED'
  | 'WARNINGS_NOT_CONFIRMED'
  | 'FEE_TOO_HIGH'
  | 'CHECK_FAILED'
  | 'CHAIN_UNREACHABLE'
  | 'SEND_FAILED'
  | 'UNKNOWN_ACTIVITY';

export class WalletError extends ServiceError {
  constructor(
    readonly code: WalletErrorCode,
    message: string,
    readonly fix?: string,
    options: ServiceErrorOptions = {},
  ) {
    super(message, options);
    this.name = 'WalletError';
  }
}
