import type { Address, Hex } from 'viem';
import type { LedgerConfiguration, SignerStatus } from '../../src-shared/appChannelTypes';
import { describeCauses } from '../core/serviceError';
import { type Logger, silentLogger } from '../log/createLogger';
import { connectKeyWorker, type KeyWorker } from './keyWorker/keyWorker';
import { forkKeyWorker } from './keyWorker/keyWorkerLaunchers';
import {
  type KeyCipher,
  type LegacyKeychainSealed,
  type OsKeychain,
  openLegacyKeychain,
  type SealedSecret,
  unwrapKek,
  WrongPassphraseError,
  wrapKek,
} from './localKey/keyCipher';
import {
  deleteLocalKey,
  LOCAL_KEY_FILE,
  type LocalKeyRecord,
  readLocalKey,
  setAsideLocalKey,
  writeLocalKey,
} from './localKey/localKeyFile';
import type { SignableTransaction, Signer } from './signer';
import { SignerError } from './signerError';
import { SignerQueue } from './signerQueue';

export { MIN_PASSPHRASE_LENGTH } from './localKey/keyCipher';
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

const wrongPassphrase = (cause: unknown) =>
  new SignerError('WRONG_PASSPHRASE', 'The passphrase does not open the stored key.', 'Type it again.', { cause });

/**
 * The app's signers in main: one local key (sealed in the data directory) and a Ledger account, one of them active,
 * every signature through one queue. The local key is held, unlocked, by the key worker, a process of its own: main
 * sends it sealed records, passphrases and prepared transactions, and gets back addresses and signatures; the key's
 * bytes never live in main (the pasted key of an import only passes through, on its way to the worker).
 */
export class Signers {
  private readonly queue = new SignerQueue();
  /**
   * Import, unlock, lock and forget, one at a time but apart from the signing queue, so a Ledger review in progress
   * does not hold them (the worker answers its requests in order anyway).
   */
  private readonly keyQueue = new SignerQueue();
  private record: LocalKeyRecord | undefined;
  /** The key worker holds the local key open. */
  private unlocked = false;
  /** The keychain's unlock at start, while it runs: signing waits for it. */
  private opening: Promise<void> | undefined;
  private ledger: { path: string; address: Address } | undefined;
  private ledgerApp: LedgerConfiguration | undefined;
  private active: 'local' | 'ledger' | null = null;
  private readonly local: Signer;

  constructor(
    private readonly dataDir: string,
    private readonly cipher: KeyCipher,
    private readonly ledgerAccess?: LedgerAccess,
    private readonly log: Logger = silentLogger(),
    private readonly keyWorker: KeyWorker = connectKeyWorker(forkKeyWorker()),
  ) {
    try {
      this.record = readLocalKey(dataDir);
    } catch (cause) {
      // A damaged key file must not keep the app (and the API for bots) from starting, nor be overwritten by the next
      // import: it is moved aside, kept for whoever can repair it.
      const aside = setAsideLocalKey(dataDir);
      log.warn(`local key: ${(cause as Error).message} It was moved to ${aside}; import the key again.`);
    }
    this.local = {
      kind: 'local',
      getAddress: async () => {
        if (!this.record) throw this.lockedError();
        return this.record.address;
      },
      signTransaction: (tx) => this.keyWorker.signTransaction(tx),
      signMessage: (message) => this.keyWorker.signMessage(message),
    };
    keyWorker.onStopped((reason) => {
      if (!this.unlocked) return;
      log.warn(`local key: the process that held it stopped (${reason}); it is locked until it is unlocked again.`);
      this.markLocked();
    });
    // The keychain opens without the person: a desktop app's key is ready at start, as a passphrase one is not.
    if (this.record && !cipher.needsPassphrase) {
      this.active = 'local';
      this.opening = this.unlockLocalKey()
        .then(
          () => undefined,
          (error: unknown) => {
            log.warn(`local key: the keychain did not open it: ${describeCauses(error)}`);
            if (!this.unlocked && this.active === 'local') this.active = this.ledger ? 'ledger' : null;
          },
        )
        .finally(() => {
          this.opening = undefined;
        });
    }
  }

  status(): SignerStatus {
    return {
      active: this.active,
      address: this.active === 'local' ? (this.record?.address ?? null) : (this.ledger?.address ?? null),
      localKey: this.record
        ? {
            address: this.record.address,
            unlocked: this.unlocked || this.opening !== undefined,
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
    if (active === null && this.record && !this.unlocked) throw this.lockedError();
    throw new SignerError('NO_SIGNER', 'No signer is set up.', 'Import a local key or connect a Ledger in Settings.');
  }

  /**
   * Has the key worker seal `privateKey` (as pasted: the worker checks it) and writes the sealed record to the data
   * directory; the key becomes the active signer. One local key per data directory. Main keeps no reference to the
   * pasted string: it goes to the worker as it came.
   */
  importLocalKey(privateKey: string, passphrase?: string): Promise<SignerStatus> {
    return this.keyQueue.run(async () => {
      if (this.record) {
        throw new SignerError(
          'LOCAL_KEY_EXISTS',
          `A local key (${this.record.address}) is already stored.`,
          'Forget it first.',
        );
      }
      const record = await this.sealInWorker(privateKey, passphrase);
      this.record = record;
      this.unlocked = true;
      this.active = 'local';
      return this.status();
    });
  }

  unlockLocalKey(passphrase?: string): Promise<SignerStatus> {
    return this.keyQueue.run(async () => {
      const record = this.record;
      if (!record) throw new SignerError('NO_LOCAL_KEY', 'No local key is stored.', 'Import a private key first.');
      const address = await this.openInWorker(record, passphrase);
      if (address !== record.address) {
        await this.keyWorker.lock();
        throw new Error(`${LOCAL_KEY_FILE} names ${record.address}, but the key sealed in it is ${address}.`);
      }
      this.unlocked = true;
      this.active = 'local';
      return this.status();
    });
  }

  lockLocalKey(): Promise<SignerStatus> {
    return this.keyQueue.run(async () => {
      this.markLocked();
      await this.keyWorker.lock();
      return this.status();
    });
  }

  forgetLocalKey(): Promise<SignerStatus> {
    return this.keyQueue.run(async () => {
      deleteLocalKey(this.dataDir);
      this.record = undefined;
      this.markLocked();
      await this.keyWorker.lock();
      return this.status();
    });
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
    if (kind === 'local' && !this.unlocked && !this.opening) throw this.lockedError();
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

  /** Main no longer counts on the worker's key: nothing local signs until it is unlocked again. */
  private markLocked(): void {
    this.unlocked = false;
    if (this.active === 'local') this.active = this.ledger ? 'ledger' : null;
  }

  /** The worker seals the key as the cipher says; main wraps a keychain KEK and writes the record. */
  private async sealInWorker(privateKey: string, passphrase: string | undefined): Promise<LocalKeyRecord> {
    const { cipher } = this;
    let record: LocalKeyRecord;
    if (cipher.kind === 'scrypt-aes-256-gcm') {
      const imported = await this.keyWorker.importKey(privateKey, {
        with: 'passphrase',
        passphrase: passphrase ?? '',
        cost: cipher.cost,
      });
      if (imported.with !== 'passphrase') throw new Error('The key worker sealed the key the wrong way.');
      record = { version: 1, address: imported.address, sealed: imported.sealed };
    } else {
      if (!cipher.keychain.isEncryptionAvailable()) {
        throw new Error('The operating system keychain is not available.');
      }
      const imported = await this.keyWorker.importKey(privateKey, { with: 'kek' });
      if (imported.with !== 'kek') throw new Error('The key worker sealed the key the wrong way.');
      try {
        record = {
          version: 1,
          address: imported.address,
          sealed: { kind: 'os-keychain-kek', kek: wrapKek(cipher.keychain, imported.kek), ...imported.sealed },
        };
      } catch (error) {
        await this.keyWorker.lock();
        throw error;
      }
    }
    try {
      writeLocalKey(this.dataDir, record);
    } catch (error) {
      // Not stored, so not imported: the worker lets go of it too.
      await this.keyWorker.lock();
      throw error;
    }
    return record;
  }

  /**
   * Opens `record` in the worker: the passphrase goes with a passphrase record; for a keychain record main opens
   * only the KEK. A record of the desktop app before the key worker (the key itself in the keychain) is opened here
   * once and resealed by the worker, so from then on main never holds the key.
   */
  private async openInWorker(record: LocalKeyRecord, passphrase: string | undefined): Promise<Address> {
    const { cipher } = this;
    const sealed: SealedSecret = record.sealed;
    try {
      if (sealed.kind === 'scrypt-aes-256-gcm' && cipher.needsPassphrase) {
        if (!passphrase) throw new WrongPassphraseError();
        return await this.keyWorker.unlock({ with: 'passphrase', sealed, passphrase });
      }
      if (sealed.kind === 'os-keychain-kek' && cipher.kind === 'os-keychain-kek') {
        return await this.keyWorker.unlock({
          with: 'kek',
          sealed: { iv: sealed.iv, ciphertext: sealed.ciphertext, tag: sealed.tag },
          kek: unwrapKek(cipher.keychain, sealed.kek),
        });
      }
      if (sealed.kind === 'os-keychain' && cipher.kind === 'os-keychain-kek') {
        const resealed = await this.migrate(cipher.keychain, record.address, sealed);
        return resealed.address;
      }
      throw new WrongPassphraseError();
    } catch (cause) {
      if (cause instanceof WrongPassphraseError) throw wrongPassphrase(cause);
      throw cause;
    }
  }

  /** An `os-keychain` record (the key's hex in the keychain) resealed as `os-keychain-kek`, and written over it. */
  private async migrate(keychain: OsKeychain, address: Address, legacy: LegacyKeychainSealed): Promise<LocalKeyRecord> {
    const imported = await this.keyWorker.importKey(openLegacyKeychain(keychain, legacy), { with: 'kek' });
    if (imported.with !== 'kek') throw new Error('The key worker sealed the key the wrong way.');
    const record: LocalKeyRecord = {
      version: 1,
      address,
      sealed: { kind: 'os-keychain-kek', kek: wrapKek(keychain, imported.kek), ...imported.sealed },
    };
    if (imported.address === address) {
      writeLocalKey(this.dataDir, record);
      this.record = record;
      this.log.info('local key: resealed for the key worker (the OS keychain now keeps only its encryption key)');
    }
    return { ...record, address: imported.address };
  }

  private withActive<T>(use: (signer: Signer) => Promise<T>): Promise<T> {
    return this.queue.run(async () => {
      if (this.opening) await this.opening;
      if (this.active === 'local') {
        if (!this.unlocked) throw this.lockedError();
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
      // A local key that was locked (by the person, or by its worker stopping) says so, as requireAddress does.
      if (this.active === null && this.record && !this.unlocked) throw this.lockedError();
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
