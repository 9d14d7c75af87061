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
  | 'LEDGER_DISCONNECTED'
  | 'LEDGER_BUSY'
  | 'LEDGER_FAILED';

export class SignerError extends Error {
  constructor(
    readonly code: SignerErrorCode,
    message: string,
    readonly fix?: string,
  ) {
    super(message);
    this.name = 'SignerError';
  }
}
