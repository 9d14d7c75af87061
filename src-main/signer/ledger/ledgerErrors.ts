import { ServiceError } from '../../core/serviceError';
import { SignerError, type SignerErrorCode } from '../signerError';

/** Why the Ledger did not do what was asked, in the terms a person can act on. */
export type LedgerReason =
  | 'locked'
  | 'app-not-open'
  | 'rejected'
  | 'blind-signing-disabled'
  | 'invalid-data'
  | 'message-too-long'
  | 'disconnected'
  | 'busy'
  | 'unknown';

/**
 * What was asked of the device when it failed. The Ethereum app answers the same status word for different reasons
 * depending on the instruction: 0x6a80 is "blind signing is off" only for a transaction.
 */
export type LedgerOperation = 'transaction' | 'message' | 'address' | 'configuration';

/**
 * The longest personal message the Ethereum app signs, in bytes: it refuses longer ones (about 8 KB), so the signer
 * refuses them before sending anything.
 */
export const LEDGER_MAX_MESSAGE_BYTES = 8_192;

const WORDING: Record<LedgerReason, { message: string; fix: string }> = {
  locked: { message: 'The Ledger is locked.', fix: 'Unlock it with your PIN, then try again.' },
  'app-not-open': {
    message: 'The Ethereum app is not open on the Ledger.',
    fix: 'Unlock the Ledger and open the Ethereum app on it, then try again.',
  },
  rejected: { message: 'The request was rejected on the Ledger.', fix: 'Try again and approve it on the device.' },
  'blind-signing-disabled': {
    message:
      "Blind signing is off in the Ledger's Ethereum app, so it refuses every contract call (trades, launches, " +
      'approvals): it cannot decode our contracts, and signs their data only once you allow blind signing.',
    fix:
      'On the Ledger, open the Ethereum app and its Settings (Nano S Plus and X: press right until Settings, then ' +
      'both buttons; Stax and Flex: tap the settings icon at the top right), turn Blind signing on, then sign again. ' +
      'The Ledger then shows the transaction hash: compare it with the one on the review screen before you sign.',
  },
  'invalid-data': {
    message: 'The Ledger refused what it was sent as invalid data.',
    fix: 'Update the Ethereum app in Ledger Live (My Ledger), then try again.',
  },
  'message-too-long': {
    message: `The Ledger's Ethereum app refuses messages over ${LEDGER_MAX_MESSAGE_BYTES} bytes.`,
    fix: 'Sign a shorter message, or sign this one with a local key.',
  },
  disconnected: {
    message: 'No Ledger is connected, or it was unplugged.',
    fix: 'Plug the Ledger in by USB, unlock it and open the Ethereum app.',
  },
  busy: {
    message: 'The Ledger is busy with another request.',
    fix: 'Approve or reject what the Ledger shows, then try again.',
  },
  unknown: {
    message: 'The Ledger could not complete the request.',
    fix: 'Reconnect the Ledger, open the Ethereum app and try again.',
  },
};

const SIGNER_CODES: Record<LedgerReason, SignerErrorCode> = {
  locked: 'LEDGER_LOCKED',
  'app-not-open': 'LEDGER_APP_NOT_OPEN',
  rejected: 'LEDGER_REJECTED',
  'blind-signing-disabled': 'LEDGER_BLIND_SIGNING_DISABLED',
  'invalid-data': 'LEDGER_INVALID_DATA',
  'message-too-long': 'LEDGER_MESSAGE_TOO_LONG',
  disconnected: 'LEDGER_DISCONNECTED',
  busy: 'LEDGER_BUSY',
  unknown: 'LEDGER_FAILED',
};

/** The failures that pass by themselves: the same request, sent again unchanged a little later, can succeed. */
const RETRYABLE: ReadonlySet<LedgerReason> = new Set(['busy']);

/** A Ledger failure with its `reason`, a `message` and a `fix` for the person; `statusCode` when the device answered one. */
export class LedgerError extends ServiceError {
  override readonly name = 'LedgerError';
  readonly fix: string;
  readonly statusCode: number | undefined;

  constructor(
    readonly reason: LedgerReason,
    options: { message?: string; fix?: string; statusCode?: number; cause?: unknown } = {},
  ) {
    super(options.message ?? WORDING[reason].message, { cause: options.cause });
    this.fix = options.fix ?? WORDING[reason].fix;
    this.statusCode = options.statusCode;
  }

  /** Whether the same request can succeed later unchanged. */
  get retry(): boolean {
    return RETRYABLE.has(this.reason);
  }

  /** The same failure as the Signers report it, with the stable LEDGER_* code; this error stays under it as its cause. */
  toSignerError(): SignerError {
    return new SignerError(SIGNER_CODES[this.reason], this.message, this.fix, { retry: this.retry, cause: this });
  }
}

/**
 * Status words of the Ledger OS and of the Ethereum app (app-ethereum's apdu_constants.h and its ragger tests,
 * @ledgerhq/errors' StatusCodes, what the app 1.22.0 answered in test/fixtures/ledger-transcripts, and what wallets
 * report from real devices). 0x6a80 is not here: its meaning depends on the operation (see toLedgerError).
 */
const STATUS_REASONS: ReadonlyMap<number, LedgerReason> = new Map([
  // The OS answers LOCKED_DEVICE to any APDU while the PIN screen is up; some Nano X firmware answered 0x6b0c.
  [0x5515, 'locked'],
  [0x6b0c, 'locked'],
  // The person pressed Reject: CONDITIONS_NOT_SATISFIED from the app, USER_REFUSED_ON_DEVICE from the OS.
  [0x6985, 'rejected'],
  [0x5501, 'rejected'],
  // A review interrupted because another program spoke to the device meanwhile: nothing was refused, it can be asked
  // again as it was.
  [0x6980, 'busy'],
  // Another app, or the dashboard: CLA or INS unknown (0x6e00, 0x6d00), "no app open" on newer firmware (0x6e01),
  // the dashboard's "app not selected" (0x6511), a mismatched app (0x6a15), an app that is not installed (0x6807),
  // and 0x650f, which some firmware answers with the dashboard up (locked or not, the fix covers both).
  [0x6e00, 'app-not-open'],
  [0x6d00, 'app-not-open'],
  [0x6e01, 'app-not-open'],
  [0x6511, 'app-not-open'],
  [0x6a15, 'app-not-open'],
  [0x6807, 'app-not-open'],
  [0x650f, 'app-not-open'],
]);

/** INVALID_DATA: the app's answer to a transaction carrying contract data while blind signing is off. */
const SW_INVALID_DATA = 0x6a80;

/** Wording that says more than the reason's own for one status word. */
const STATUS_WORDING: ReadonlyMap<number, { message: string; fix: string }> = new Map([
  [
    0x6980,
    {
      message: 'The review on the Ledger was interrupted: another program spoke to the device meanwhile.',
      fix: 'Close other programs that use the Ledger (Ledger Live, a browser wallet), then try again.',
    },
  ],
]);

/**
 * Error names from @ledgerhq/errors, @ledgerhq/hw-transport and hw-app-eth. Matched by name, not `instanceof`:
 * hw-transport-node-hid brings its own copy of hw-transport, so the same error comes from two different classes.
 */
const NAME_REASONS: ReadonlyMap<string, LedgerReason> = new Map([
  ['LockedDeviceError', 'locked'],
  ['ManagerDeviceLocked', 'locked'],
  ['UserRefusedOnDevice', 'rejected'],
  ['UserRefusedAddress', 'rejected'],
  // hw-app-eth turns a 0x6a80 during signTransaction into this, dropping the status word.
  ['EthAppPleaseEnableContractData', 'blind-signing-disabled'],
  ['DisconnectedDevice', 'disconnected'],
  ['DisconnectedDeviceDuringOperation', 'disconnected'],
  ['CantOpenDevice', 'disconnected'],
  ['TransportInterfaceNotAvailable', 'disconnected'],
  ['TransportRaceCondition', 'busy'],
]);

/** TransportError ids: no device to open, and hw-transport's lock while an app call is in flight. */
const TRANSPORT_ID_REASONS: ReadonlyMap<string, LedgerReason> = new Map([
  ['NoDevice', 'disconnected'],
  ['NoDeviceFound', 'disconnected'],
  ['ListenTimeout', 'disconnected'],
  ['TransportLocked', 'busy'],
]);

interface LedgerLibraryError {
  name?: unknown;
  statusCode?: unknown;
  id?: unknown;
}

/**
 * Maps whatever the transport or hw-app-eth threw during `operation` to a LedgerError, so the person reads "unlock
 * it" or "open the Ethereum app" instead of a status word. An unrecognised status word stays in the message, for
 * support. Without an operation, 0x6a80 is invalid data: only a transaction makes it mean blind signing.
 *
 * @example toLedgerError(new TransportStatusError(0x6a80), 'transaction').reason // 'blind-signing-disabled'
 */
export function toLedgerError(error: unknown, operation?: LedgerOperation): LedgerError {
  if (error instanceof LedgerError) return error;
  const { name, statusCode, id } = (typeof error === 'object' && error !== null ? error : {}) as LedgerLibraryError;
  const status = typeof statusCode === 'number' ? statusCode : undefined;
  const reason =
    (status === SW_INVALID_DATA
      ? operation === 'transaction'
        ? 'blind-signing-disabled'
        : 'invalid-data'
      : undefined) ??
    (status !== undefined ? STATUS_REASONS.get(status) : undefined) ??
    (typeof name === 'string' ? NAME_REASONS.get(name) : undefined) ??
    (typeof id === 'string' ? TRANSPORT_ID_REASONS.get(id) : undefined);
  if (reason) {
    const wording = status !== undefined ? STATUS_WORDING.get(status) : undefined;
    return new LedgerError(reason, { ...wording, statusCode: status, cause: error });
  }
  const detail =
    status !== undefined
      ? ` (status 0x${status.toString(16).padStart(4, '0')})`
      : error instanceof Error
        ? ` (${error.message})`
        : '';
  return new LedgerError('unknown', {
    message: `The Ledger could not complete the request${detail}.`,
    statusCode: status,
    cause: error,
  });
}
