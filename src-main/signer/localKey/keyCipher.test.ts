import { expect, it } from 'vitest';
import { keychainCipher, type OsKeychain, passphraseCipher, WrongPassphraseError } from './keyCipher';

const SECRET = new Uint8Array(Array.from({ length: 32 }, (_, i) => i + 1));
const cheap = passphraseCipher({ n: 2 ** 10, r: 8, p: 1 });

it('opens a passphrase-sealed key with the passphrase only, and never holds it in the clear', () => {
  const sealed = cheap.seal(SECRET, 'correct horse battery');
  expect(JSON.stringify(sealed)).not.toContain(Buffer.from(SECRET).toString('hex'));
  expect(cheap.open(sealed, 'correct horse battery')).toEqual(SECRET);
  expect(() => cheap.open(sealed, 'correct horse batterY')).toThrow(WrongPassphraseError);
  expect(() => cheap.open(sealed, undefined)).toThrow(WrongPassphraseError);
  // Two seals of one key differ (fresh salt and nonce), and a flipped bit of the ciphertext is refused, not misread.
  expect(cheap.seal(SECRET, 'correct horse battery')).not.toEqual(sealed);
  if (sealed.kind !== 'scrypt-aes-256-gcm') throw new Error('unexpected kind');
  const flipped = {
    ...sealed,
    ciphertext: `${sealed.ciphertext.slice(0, -1)}${sealed.ciphertext.endsWith('0') ? '1' : '0'}`,
  };
  expect(() => cheap.open(flipped, 'correct horse battery')).toThrow(WrongPassphraseError);
});

it('keeps the scrypt cost with the key, so a file sealed at another cost still opens', () => {
  const sealed = passphraseCipher({ n: 2 ** 11, r: 8, p: 1 }).seal(SECRET, 'correct horse battery');
  expect(cheap.open(sealed, 'correct horse battery')).toEqual(SECRET);
});

it('seals with the OS keychain in the desktop app, and refuses when the keychain cannot decrypt it', () => {
  const xor = (bytes: Buffer) => Buffer.from(bytes.map((b) => b ^ 0x5a));
  const keychain: OsKeychain = {
    isEncryptionAvailable: () => true,
    encryptString: (plain) => xor(Buffer.from(plain, 'utf8')),
    decryptString: (encrypted) => {
      if (encrypted.length !== 64) throw new Error('not ours');
      return xor(encrypted).toString('utf8');
    },
  };
  const cipher = keychainCipher(keychain);
  const sealed = cipher.seal(SECRET);
  expect(cipher.needsPassphrase).toBe(false);
  expect(cipher.open(sealed)).toEqual(SECRET);
  expect(() => cipher.open({ kind: 'os-keychain', blob: 'AAAA' })).toThrow(WrongPassphraseError);
  // The keychain's own reason stays under the refusal, for the log.
  expect(() => cipher.open({ kind: 'os-keychain', blob: 'AAAA' })).toThrow(
    expect.objectContaining({ cause: expect.objectContaining({ message: 'not ours' }) }),
  );
  expect(() => keychainCipher({ ...keychain, isEncryptionAvailable: () => false }).seal(SECRET)).toThrow();
});
