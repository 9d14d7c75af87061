import { ServiceError, type ServiceErrorOptions } from '../core/serviceError';

/** Why the app's signer could not do what was asked; `code` is stable, `message` and `fix` are for the person. */
export type SignerErrorCode =
  | 'NO_SIGNER'
  | 'NO_LOCAL_KEY'
  | 'LOCAL_KEY_EXISTS'
  | 'SIGNER_LOCKED'
  | 'WRONG_PASSPHRASE'
  | 'WEAK_PASSPHRASE'
  | 'INVALID_PRIVATE_KEY'
  | 'LEDGER_LOCKED'
  | 'LEDGER_APP_NOT_OPEN'
  | 'LEDGER_REJECTED'
  | 'LEDGER_BLIND_SIGNING_DISABLED'
  | 'LEDGER_INVALID_DATA'
  | 'LEDGER_MESSAGE_TOO_LONG'
  | 'LEDGER_DISCONNECTED'
  | 'LEDGER_BUSY'
  | 'LEDGER_FAILED';

/** `retry`: the same request can succeed later unchanged (the spec's meaning), as a Ledger busy with another program. */
export class SignerError extends ServiceError {
  readonly retry: boolean;

  constructor(
    readonly code: SignerErrorCode,
    message: string,
    readonly fix?: string,
    options: { retry?: boolean } & ServiceErrorOptions = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'SignerError';
    this.retry = options.retry ?? false;
  }
}
