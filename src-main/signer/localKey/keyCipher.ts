import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';
import { ServiceError, type ServiceErrorOptions } from '../../core/serviceError';

/** scrypt's cost parameters. */
export interface ScryptCost {
  n: number;
  r: number;
  p: number;
}

/**
 * A key sealed by a passphrase: scrypt, then AES-256-GCM. scrypt's cost is kept with the key, so a later version can
 * raise it and still open old files.
 */
export interface PassphraseSealed extends ScryptCost {
  kind: 'scrypt-aes-256-gcm';
  salt: string;
  iv: string;
  ciphertext: string;
  tag: string;
}

/** A key sealed by AES-256-GCM under a random key-encryption key (KEK), in the key worker. */
export interface KekSealed {
  iv: string;
  ciphertext: string;
  tag: string;
}

/**
 * The desktop app's local key: sealed under a KEK by the key worker, and only that KEK sealed by the OS keychain in
 * main (`kek`, base64). Main can open the KEK but never sees the key; the worker never needs the keychain.
 */
export interface KeychainSealed extends KekSealed {
  kind: 'os-keychain-kek';
  kek: string;
}

/**
 * What versions before the key worker wrote in the desktop app: the key's hex sealed by the keychain itself. Still
 * read: it is opened once in main and resealed as KeychainSealed (Signers' migration).
 */
export interface LegacyKeychainSealed {
  kind: 'os-keychain';
  blob: string;
}

/** A sealed secret as it lies on disk: JSON-safe, no secret in the clear. */
export type SealedSecret = PassphraseSealed | KeychainSealed | LegacyKeychainSealed;

/** Electron's safeStorage, as much of it as the keychain uses (passed in: main's signer never imports electron). */
export interface OsKeychain {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

/**
 * How the local key is sealed at rest, as main configures it. Headless, a passphrase (the key worker runs scrypt and
 * AES-256-GCM); in the desktop app, the operating system's keychain (Electron's safeStorage, which only main has),
 * which needs no passphrase and seals only the key worker's KEK.
 */
export type KeyCipher =
  | { readonly kind: 'scrypt-aes-256-gcm'; readonly needsPassphrase: true; readonly cost: ScryptCost }
  | { readonly kind: 'os-keychain-kek'; readonly needsPassphrase: false; readonly keychain: OsKeychain };

export class WrongPassphraseError extends ServiceError {
  constructor(options: ServiceErrorOptions = {}) {
    super('The passphrase does not open the stored key.', options);
    this.name = 'WrongPassphraseError';
  }
}

/** scrypt cost: 2^17 with r=8 is about 128 MiB and a few hundred ms, the level wallet keystores use. */
export const DEFAULT_SCRYPT: ScryptCost = { n: 2 ** 17, r: 8, p: 1 };
/** The shortest passphrase a local key is sealed with. */
export const MIN_PASSPHRASE_LENGTH = 8;
const KEY_BYTES = 32;

/**
 * The passphrase keystore, the headless default. AES-GCM's tag makes a wrong passphrase fail to open instead of
 * yielding another key.
 * @example new Signers(dataDir, passphraseCipher({ n: 2 ** 12, r: 8, p: 1 })) // a cheap cost, for tests
 */
export function passphraseCipher(cost: ScryptCost = DEFAULT_SCRYPT): KeyCipher {
  return { kind: 'scrypt-aes-256-gcm', needsPassphrase: true, cost: { n: cost.n, r: cost.r, p: cost.p } };
}

/** The desktop app's cipher: the OS keychain seals the key worker's key-encryption key. */
export function keychainCipher(keychain: OsKeychain): KeyCipher {
  return { kind: 'os-keychain-kek', needsPassphrase: false, keychain };
}

// The key worker's side: these take or give the key itself, and run only in the key worker.

function derive(passphrase: string, salt: Buffer, { n, r, p }: ScryptCost): Buffer {
  return scryptSync(passphrase.normalize('NFKC'), salt, KEY_BYTES, { N: n, r, p, maxmem: 256 * n * r + 1024 * 1024 });
}

function encrypt(secret: Uint8Array, key: Uint8Array): KekSealed {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(secret), cipher.final()]);
  return { iv: iv.toString('hex'), ciphertext: ciphertext.toString('hex'), tag: cipher.getAuthTag().toString('hex') };
}

/** Throws WrongPassphraseError when `key` does not open it (the tag does not match). */
function decrypt(sealed: KekSealed, key: Uint8Array): Uint8Array {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'hex'));
    decipher.setAuthTag(Buffer.from(sealed.tag, 'hex'));
    return new Uint8Array(Buffer.concat([decipher.update(Buffer.from(sealed.ciphertext, 'hex')), decipher.final()]));
  } catch {
    throw new WrongPassphraseError();
  }
}

/** Seals `secret` with `passphrase` at `cost` (fresh salt and nonce each time). */
export function sealWithPassphrase(secret: Uint8Array, passphrase: string, cost: ScryptCost): PassphraseSealed {
  if (!passphrase) throw new WrongPassphraseError();
  const salt = randomBytes(16);
  return {
    kind: 'scrypt-aes-256-gcm',
    n: cost.n,
    r: cost.r,
    p: cost.p,
    salt: salt.toString('hex'),
    ...encrypt(secret, derive(passphrase, salt, cost)),
  };
}

/** Throws WrongPassphraseError when the passphrase does not open it. */
export function openWithPassphrase(sealed: PassphraseSealed, passphrase: string | undefined): Uint8Array {
  if (sealed.kind !== 'scrypt-aes-256-gcm' || !passphrase) throw new WrongPassphraseError();
  return decrypt(sealed, derive(passphrase, Buffer.from(sealed.salt, 'hex'), sealed));
}

/** A fresh key-encryption key (32 random bytes). */
export function newKek(): Buffer {
  return randomBytes(KEY_BYTES);
}

export function sealWithKek(secret: Uint8Array, kek: Uint8Array): KekSealed {
  return encrypt(secret, kek);
}

/** Throws WrongPassphraseError when `kek` does not open it. */
export function openWithKek(sealed: KekSealed, kek: Uint8Array): Uint8Array {
  if (kek.length !== KEY_BYTES) throw new WrongPassphraseError();
  return decrypt(sealed, kek);
}

// Main's side of the keychain: only the KEK (and, once, a legacy record) passes through it.

/** Seals the key worker's KEK (hex) with the OS keychain; the result is KeychainSealed's `kek`. */
export function wrapKek(keychain: OsKeychain, kekHex: string): string {
  if (!keychain.isEncryptionAvailable()) throw new Error('The operating system keychain is not available.');
  return keychain.encryptString(kekHex).toString('base64');
}

/** The KEK (hex) under KeychainSealed's `kek`; WrongPassphraseError (the keychain's reason as its cause) otherwise. */
export function unwrapKek(keychain: OsKeychain, wrapped: string): string {
  return keychainOpen(keychain, wrapped);
}

/**
 * The key's hex under a record of a version before the key worker: the only time main holds the key, to hand it to
 * the key worker for resealing (see Signers' migration).
 */
export function openLegacyKeychain(keychain: OsKeychain, sealed: LegacyKeychainSealed): string {
  return keychainOpen(keychain, sealed.blob);
}

function keychainOpen(keychain: OsKeychain, base64: string): string {
  try {
    return keychain.decryptString(Buffer.from(base64, 'base64'));
  } catch (cause) {
    // The keychain's own reason (locked, another user's, unavailable) is worth a log line; it holds no secret.
    throw new WrongPassphraseError({ cause });
  }
}
