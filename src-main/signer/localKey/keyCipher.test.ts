import { expect, it } from 'vitest';
import {
  keychainCipher,
  newKek,
  type OsKeychain,
  openLegacyKeychain,
  openWithKek,
  openWithPassphrase,
  passphraseCipher,
  sealWithKek,
  sealWithPassphrase,
  unwrapKek,
  WrongPassphraseError,
  wrapKek,
} from './keyCipher';

const SECRET = new Uint8Array(Array.from({ length: 32 }, (_, i) => i + 1));
const SECRET_HEX = Buffer.from(SECRET).toString('hex');
const CHEAP = { n: 2 ** 10, r: 8, p: 1 };

it('opens a passphrase-sealed key with the passphrase only, and never holds it in the clear', () => {
  const sealed = sealWithPassphrase(SECRET, 'correct horse battery', CHEAP);
  expect(JSON.stringify(sealed)).not.toContain(SECRET_HEX);
  expect(openWithPassphrase(sealed, 'correct horse battery')).toEqual(SECRET);
  expect(() => openWithPassphrase(sealed, 'correct horse batterY')).toThrow(WrongPassphraseError);
  expect(() => openWithPassphrase(sealed, undefined)).toThrow(WrongPassphraseError);
  // Two seals of one key differ (fresh salt and nonce), and a flipped bit of the ciphertext is refused, not misread.
  expect(sealWithPassphrase(SECRET, 'correct horse battery', CHEAP)).not.toEqual(sealed);
  const flipped = {
    ...sealed,
    ciphertext: `${sealed.ciphertext.slice(0, -1)}${sealed.ciphertext.endsWith('0') ? '1' : '0'}`,
  };
  expect(() => openWithPassphrase(flipped, 'correct horse battery')).toThrow(WrongPassphraseError);
});

it('keeps the scrypt cost with the key, so a file sealed at another cost still opens', () => {
  const sealed = sealWithPassphrase(SECRET, 'correct horse battery', { n: 2 ** 11, r: 8, p: 1 });
  expect(sealed).toMatchObject({ n: 2 ** 11, r: 8, p: 1 });
  expect(openWithPassphrase(sealed, 'correct horse battery')).toEqual(SECRET);
  // The cipher main is configured with only says how to seal: the cost, and that a passphrase is needed.
  expect(passphraseCipher(CHEAP)).toEqual({ kind: 'scrypt-aes-256-gcm', needsPassphrase: true, cost: CHEAP });
});

it('opens a passphrase file written before the key worker (the format did not change; the worker reads it now)', () => {
  // Sealed by the passphrase cipher of the version before the key worker, with 'correct horse battery'.
  const earlier = {
    kind: 'scrypt-aes-256-gcm' as const,
    n: 1024,
    r: 8,
    p: 1,
    salt: '77146a21326a5bd66ce6d72b09b8ce7b',
    iv: '7043801793b604ab57d0d38c',
    ciphertext: 'c865e9b2d30f20fc612f2dcff21d67b38552b3d772852870cba2d24850c1ea33',
    tag: '0af87a0654626b9391616dbee0e6f0b9',
  };
  expect(openWithPassphrase(earlier, 'correct horse battery')).toEqual(SECRET);
  expect(Object.keys(sealWithPassphrase(SECRET, 'correct horse battery', CHEAP)).sort()).toEqual(
    Object.keys(earlier).sort(),
  );
});

const xor = (bytes: Buffer) => Buffer.from(bytes.map((b) => b ^ 0x5a));
const keychain: OsKeychain = {
  isEncryptionAvailable: () => true,
  encryptString: (plain) => xor(Buffer.from(plain, 'utf8')),
  decryptString: (encrypted) => {
    if (encrypted.length !== 64) throw new Error('not ours');
    return xor(encrypted).toString('utf8');
  },
};

it('seals under a fresh KEK in the worker, and only that KEK with the OS keychain in main', () => {
  const kek = newKek();
  const sealed = sealWithKek(SECRET, kek);
  expect(JSON.stringify(sealed)).not.toContain(SECRET_HEX);
  expect(openWithKek(sealed, kek)).toEqual(SECRET);
  expect(() => openWithKek(sealed, newKek())).toThrow(WrongPassphraseError);
  expect(() => openWithKek(sealed, new Uint8Array(3))).toThrow(WrongPassphraseError);

  const wrapped = wrapKek(keychain, kek.toString('hex'));
  expect(wrapped).not.toContain(kek.toString('hex'));
  expect(unwrapKek(keychain, wrapped)).toBe(kek.toString('hex'));
  expect(keychainCipher(keychain)).toMatchObject({ kind: 'os-keychain-kek', needsPassphrase: false });
});

it('refuses when the keychain cannot decrypt, keeping its reason for the log, and needs the keychain to seal', () => {
  expect(() => unwrapKek(keychain, 'AAAA')).toThrow(WrongPassphraseError);
  expect(() => unwrapKek(keychain, 'AAAA')).toThrow(
    expect.objectContaining({ cause: expect.objectContaining({ message: 'not ours' }) }),
  );
  expect(() => wrapKek({ ...keychain, isEncryptionAvailable: () => false }, 'ab')).toThrow();
});

it('still opens a keychain record written before the key worker (the key itself in the keychain)', () => {
  // What the keychain cipher of the earlier version wrote: the key's hex, encrypted by safeStorage, base64.
  const legacy = { kind: 'os-keychain' as const, blob: keychain.encryptString(SECRET_HEX).toString('base64') };
  expect(openLegacyKeychain(keychain, legacy)).toBe(SECRET_HEX);
  expect(() => openLegacyKeychain(keychain, { kind: 'os-keychain', blob: 'AAAA' })).toThrow(WrongPassphraseError);
});
