import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';
import { ServiceError, type ServiceErrorOptions } from '../../core/serviceError';

/** A sealed secret as it lies on disk: JSON-safe, no secret in the clear. */
export type SealedSecret =
  | {
      kind: 'scrypt-aes-256-gcm';
      /** scrypt cost parameters, kept with the secret so a later version can raise them and still open old files. */
      n: number;
      r: number;
      p: number;
      salt: string;
      iv: string;
      ciphertext: string;
      tag: string;
    }
  | { kind: 'os-keychain'; blob: string };

/**
 * How a local key is encrypted at rest. Headless, a passphrase (scrypt, then AES-256-GCM); in the desktop app, the
 * operating system's keychain (Electron's safeStorage), which needs no passphrase.
 */
export interface KeyCipher {
  readonly kind: SealedSecret['kind'];
  /** Whether opening needs the user's passphrase. */
  readonly needsPassphrase: boolean;
  seal(secret: Uint8Array, passphrase?: string): SealedSecret;
  /** Throws WrongPassphraseError when the passphrase (or keychain) does not open it. */
  open(sealed: SealedSecret, passphrase?: string): Uint8Array;
}

export class WrongPassphraseError extends ServiceError {
  constructor(options: ServiceErrorOptions = {}) {
    super('The passphrase does not open the stored key.', options);
    this.name = 'WrongPassphraseError';
  }
}

/** scrypt cost: 2^17 with r=8 is about 128 MiB and a few hundred ms, the level wallet keystores use. */
export const DEFAULT_SCRYPT = { n: 2 ** 17, r: 8, p: 1 } as const;
const KEY_BYTES = 32;

function derive(passphrase: string, salt: Buffer, n: number, r: number, p: number): Buffer {
  return scryptSync(passphrase.normalize('NFKC'), salt, KEY_BYTES, { N: n, r, p, maxmem: 256 * n * r + 1024 * 1024 });
}

/**
 * The passphrase keystore. AES-GCM's tag makes a wrong passphrase fail to open instead of yielding another key.
 * @example passphraseCipher().seal(privateKeyBytes, 'correct horse battery staple')
 */
export function passphraseCipher(cost: { n: number; r: number; p: number } = DEFAULT_SCRYPT): KeyCipher {
  return {
    kind: 'scrypt-aes-256-gcm',
    needsPassphrase: true,
    seal(secret, passphrase) {
      if (!passphrase) throw new WrongPassphraseError();
      const salt = randomBytes(16);
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', derive(passphrase, salt, cost.n, cost.r, cost.p), iv);
      const ciphertext = Buffer.concat([cipher.update(secret), cipher.final()]);
      return {
        kind: 'scrypt-aes-256-gcm',
        ...cost,
        salt: salt.toString('hex'),
        iv: iv.toString('hex'),
        ciphertext: ciphertext.toString('hex'),
        tag: cipher.getAuthTag().toString('hex'),
      };
    },
    open(sealed, passphrase) {
      if (sealed.kind !== 'scrypt-aes-256-gcm' || !passphrase) throw new WrongPassphraseError();
      const key = derive(passphrase, Buffer.from(sealed.salt, 'hex'), sealed.n, sealed.r, sealed.p);
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'hex'));
      decipher.setAuthTag(Buffer.from(sealed.tag, 'hex'));
      try {
        return new Uint8Array(
          Buffer.concat([decipher.update(Buffer.from(sealed.ciphertext, 'hex')), decipher.final()]),
        );
      } catch {
        throw new WrongPassphraseError();
      }
    },
  };
}

/** Electron's safeStorage, as much of it as the keychain cipher uses (passed in: main's signer never imports electron). */
export interface OsKeychain {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

/** The desktop app's cipher: the OS keychain holds the key that encrypts the local key. */
export function keychainCipher(keychain: OsKeychain): KeyCipher {
  return {
    kind: 'os-keychain',
    needsPassphrase: false,
    seal(secret) {
      if (!keychain.isEncryptionAvailable()) throw new Error('The operating system keychain is not available.');
      return {
        kind: 'os-keychain',
        blob: keychain.encryptString(Buffer.from(secret).toString('hex')).toString('base64'),
      };
    },
    open(sealed) {
      if (sealed.kind !== 'os-keychain') throw new WrongPassphraseError();
      try {
        return new Uint8Array(Buffer.from(keychain.decryptString(Buffer.from(sealed.blob, 'base64')), 'hex'));
      } catch (cause) {
        // The keychain's own reason (locked, another user's, unavailable) is worth a log line; it holds no secret.
        throw new WrongPassphraseError({ cause });
      }
    },
  };
}
