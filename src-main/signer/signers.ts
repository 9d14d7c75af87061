import { type Address, type Hex, isHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { LedgerConfiguration, SignerStatus } from '../../src-shared/appChannelTypes';
import { type Logger, silentLogger } from '../log/createLogger';
import { type KeyCipher, WrongPassphraseError } from './localKey/keyCipher';
import {
  deleteLocalKey,
  type LocalKeyRecord,
  readLocalKey,
  setAsideLocalKey,
  writeLocalKey,
} from './localKey/localKeyFile';
import { createLocalKeySigner } from './localKey/localKeySigner';
import type { SignableTransaction, Signer } from './signer';
import { SignerError } from './signerError';
import { SignerQueue } from './signerQueue';

export type { SignerStatus };

/** What the Ledger side offers the Signers: a signer on a path, and the addresses along a path template. */
export interface LedgerAccess {
  /** Runs `use` with a signer on `path` over a freshly opened transport, closed afterwards whatever happens. */
  withSigner<T>(path: string, use: (signer: Signer) => Promise<T>): Promise<T>;
  addresses(template: string, from: number, count: number): Promise<{ path: string; address: Address }[]>;
  /** The Ethereum app's configuration: whether blind signing is on, and its version. */
  configuration(): Promise<LedgerConfiguration>;
  /** Maps a device or transport failure to a SignerError (locked, app not open, rejected...). */
  toSignerError(cause: unknown): SignerError | undefined;
}

export const MIN_PASSPHRASE_LENGTH = 8;

/**
 * The app's signers in main: one local key (sealed in the data directory) and a Ledger account, one of them active,
 * every signature through one queue. The private key never leaves this object.
 */
export class Signers {
  private readonly queue = new SignerQueue();
  private record: LocalKeyRecord | undefined;
  private local: Signer | undefined;
  private ledger: { path: string; address: Address } | undefined;
  private ledgerApp: LedgerConfiguration | undefined;
  private active: 'local' | 'ledger' | null = null;

  constructor(
    private readonly dataDir: string,
    private readonly cipher: KeyCipher,
    private readonly ledgerAccess?: LedgerAccess,
    log: Logger = silentLogger(),
  ) {
    try {
      this.record = readLocalKey(dataDir);
    } catch (cause) {
      // A damaged key file must not keep the app (and the API for bots) from starting, nor be overwritten by the next
      // import: it is moved aside, kept for whoever can repair it.
      const aside = setAsideLocalKey(dataDir);
      log.warn(`local key: ${(cause as Error).message} It was moved to ${aside}; import the key again.`);
    }
    // The keychain opens without the person: a desktop app's key is ready at start, as a passphrase one is not.
    if (this.record && !cipher.needsPassphrase) this.unlockLocalKey();
  }

  status(): SignerStatus {
    return {
      active: this.active,
      address: this.active === 'local' ? (this.record?.address ?? null) : (this.ledger?.address ?? null),
      localKey: this.record
        ? {
            address: this.record.address,
            unlocked: this.local !== undefined,
            needsPassphrase: this.cipher.needsPassphrase,
          }
        : null,
      ledger: this.ledger ?? null,
      ledgerApp: this.ledgerApp ?? null,
      queued: this.queue.pending,
    };
  }

  /** The active signer's address; throws the reason there is none (locked, nothing set up). */
  requireAddress(): Address {
    const { address, active } = this.status();
    if (address) return address;
    if (active === null && this.record && !this.local) throw this.lockedError();
    throw new SignerError('NO_SIGNER', 'No signer is set up.', 'Import a local key or connect a Ledger in Settings.');
  }

  /** Seals `privateKey` into the data directory and makes it the active signer. One local key per data directory. */
  importLocalKey(privateKey: string, passphrase?: string): SignerStatus {
    if (this.record) {
      throw new SignerError(
        'LOCAL_KEY_EXISTS',
        `A local key (${this.record.address}) is already stored.`,
        'Forget it first.',
      );
    }
    const key = (privateKey.trim().startsWith('0x') ? privateKey.trim() : `0x${privateKey.trim()}`) as Hex;
    if (!isHex(key) || key.length !== 66) {
      throw new SignerError('INVALID_PRIVATE_KEY', 'A private key is 32 bytes: 64 hex digits.', 'Paste the whole key.');
    }
    let address: Address;
    try {
      address = privateKeyToAccount(key).address;
    } catch {
      throw new SignerError('INVALID_PRIVATE_KEY', 'That is not a valid secp256k1 private key.', 'Check the key.');
    }
    if (this.cipher.needsPassphrase && (passphrase ?? '').length < MIN_PASSPHRASE_LENGTH) {
      throw new SignerError(
        'WEAK_PASSPHRASE',
        `The passphrase must have at least ${MIN_PASSPHRASE_LENGTH} characters.`,
        'Choose a longer passphrase; it encrypts the key on disk.',
      );
    }
    const record: LocalKeyRecord = {
      version: 1,
      address,
      sealed: this.cipher.seal(Buffer.from(key.slice(2), 'hex'), passphrase),
    };
    writeLocalKey(this.dataDir, record);
    this.record = record;
    this.local = createLocalKeySigner(key);
    this.active = 'local';
    return this.status();
  }

  unlockLocalKey(passphrase?: string): SignerStatus {
    if (!this.record) throw new SignerError('NO_LOCAL_KEY', 'No local key is stored.', 'Import a private key first.');
    let secret: Uint8Array;
    try {
      secret = this.cipher.open(this.record.sealed, passphrase);
    } catch (cause) {
      if (cause instanceof WrongPassphraseError) {
        throw new SignerError('WRONG_PASSPHRASE', 'The passphrase does not open the stored key.', 'Type it again.', {
          cause,
        });
      }
      throw cause;
    }
    this.local = createLocalKeySigner(`0x${Buffer.from(secret).toString('hex')}`);
    this.active = 'local';
    return this.status();
  }

  lockLocalKey(): SignerStatus {
    this.local = undefined;
    if (this.active === 'local') this.active = this.ledger ? 'ledger' : null;
    return this.status();
  }

  forgetLocalKey(): SignerStatus {
    deleteLocalKey(this.dataDir);
    this.record = undefined;
    return this.lockLocalKey();
  }

  async ledgerAddresses(template: string, from: number, count: number): Promise<{ path: string; address: Address }[]> {
    const ledger = this.requireLedger();
    return this.queue.run(() => this.device(() => ledger.addresses(template, from, count)));
  }

  /**
   * Reads the account on `path` from the device and makes the Ledger the active signer; reads the Ethereum app's
   * configuration too, so the person learns that blind signing is off when choosing the Ledger, not at the first trade.
   */
  async useLedger(path: string): Promise<SignerStatus> {
    const ledger = this.requireLedger();
    const { address, app } = await this.queue.run(() =>
      this.device(async () => ({
        address: await ledger.withSigner(path, (s) => s.getAddress()),
        app: await ledger.configuration(),
      })),
    );
    this.ledger = { path, address };
    this.ledgerApp = app;
    this.active = 'ledger';
    return this.status();
  }

  /** Asks the Ledger's Ethereum app for its configuration again (after the person turned blind signing on). */
  async ledgerConfiguration(): Promise<SignerStatus> {
    const ledger = this.requireLedger();
    this.ledgerApp = await this.queue.run(() => this.device(() => ledger.configuration()));
    return this.status();
  }

  /** Makes the already unlocked local key, or the chosen Ledger account, the one that signs. */
  use(kind: 'local' | 'ledger'): SignerStatus {
    if (kind === 'local' && !this.local) throw this.lockedError();
    if (kind === 'ledger' && !this.ledger) {
      throw new SignerError('NO_SIGNER', 'No Ledger account is chosen.', 'Connect the Ledger and choose an account.');
    }
    this.active = kind;
    return this.status();
  }

  signTransaction(tx: SignableTransaction): Promise<Hex> {
    return this.withActive((signer) => signer.signTransaction(tx));
  }

  async signMessage(message: string): Promise<{ address: Address; signature: Hex }> {
    return this.withActive(async (signer) => ({
      address: await signer.getAddress(),
      signature: await signer.signMessage(message),
    }));
  }

  private withActive<T>(use: (signer: Signer) => Promise<T>): Promise<T> {
    return this.queue.run(async () => {
      if (this.active === 'local') {
        if (!this.local) throw this.lockedError();
        return use(this.local);
      }
      if (this.active === 'ledger' && this.ledger) {
        const { path } = this.ledger;
        try {
          return await this.device(() => this.requireLedger().withSigner(path, use));
        } catch (cause) {
          // The device (or the check before it) says blind signing is off: the status says so too from now on.
          if (cause instanceof SignerError && cause.code === 'LEDGER_BLIND_SIGNING_DISABLED' && this.ledgerApp) {
            this.ledgerApp = { ...this.ledgerApp, blindSigning: false };
          }
          throw cause;
        }
      }
      throw new SignerError('NO_SIGNER', 'No signer is set up.', 'Import a local key or connect a Ledger in Settings.');
    });
  }

  private async device<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (cause) {
      throw this.ledgerAccess?.toSignerError(cause) ?? cause;
    }
  }

  private requireLedger(): LedgerAccess {
    if (!this.ledgerAccess) {
      throw new SignerError('LEDGER_DISCONNECTED', 'Ledger support is not available here.', 'Use a local key.');
    }
    return this.ledgerAccess;
  }

  private lockedError(): SignerError {
    return this.record
      ? new SignerError('SIGNER_LOCKED', 'The local key is locked.', 'Unlock it with its passphrase.')
      : new SignerError('NO_LOCAL_KEY', 'No local key is stored.', 'Import a private key first.');
  }
}
