import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { privateKeyToAccount } from 'viem/accounts';
import { expect, it } from 'vitest';
import { inProcessKeyWorker } from '../../test/support/inProcessKeyWorker';
import { lineLogger, silentLogger } from '../log/createLogger';
import { connectKeyWorker } from './keyWorker/keyWorker';
import { type KeyCipher, keychainCipher, type OsKeychain, passphraseCipher } from './localKey/keyCipher';
import { LOCAL_KEY_FILE } from './localKey/localKeyFile';
import type { SignableTransaction } from './signer';
import { SignerQueue } from './signerQueue';
import { Signers } from './signers';

const cipher = passphraseCipher({ n: 2 ** 10, r: 8, p: 1 });

it('starts without a key when the key file is damaged, keeping the damaged file aside for repair', () => {
  const dir = mkdtempSync(join(tmpdir(), 'signers-'));
  writeFileSync(join(dir, LOCAL_KEY_FILE), '{"version": 1, "address": "0x12');
  const lines: string[] = [];
  const signers = new Signers(
    dir,
    cipher,
    undefined,
    lineLogger((line) => lines.push(line)),
  );
  expect(signers.status()).toMatchObject({ active: null, localKey: null });
  const aside = readdirSync(dir).filter((name) => name.startsWith(`${LOCAL_KEY_FILE}.unreadable-`));
  expect(aside).toHaveLength(1);
  expect(readFileSync(join(dir, aside[0] as string), 'utf8')).toBe('{"version": 1, "address": "0x12');
  expect(lines).toHaveLength(1);
  expect(() => signers.requireAddress()).toThrow(expect.objectContaining({ code: 'NO_SIGNER' }));
});

it('runs signer requests one at a time, in order, a failed one not stopping the next', async () => {
  const queue = new SignerQueue();
  const order: string[] = [];
  const job = (name: string, ms: number, fail = false) =>
    queue.run(async () => {
      order.push(`start ${name}`);
      await new Promise((resolve) => setTimeout(resolve, ms));
      order.push(`end ${name}`);
      if (fail) throw new Error(name);
      return name;
    });
  const results = await Promise.allSettled([job('a', 20), job('b', 1, true), job('c', 1)]);
  expect(order).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  expect(queue.pending).toBe(0);
});

const KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d' as const;
const PASSPHRASE = 'correct horse battery';
const account = privateKeyToAccount(KEY);
const TX: SignableTransaction = {
  type: 'eip1559',
  chainId: 31337,
  to: '0x000000000022D473030F116dDEE9F6B43aC78BA3',
  nonce: 7,
  gas: 210_000n,
  maxFeePerGas: 3_000_000_000n,
  maxPriorityFeePerGas: 10n ** 9n,
  value: 2n ** 70n + 1n,
  data: '0xd0e30db0',
};
const keyHex = (text: string) => text.toLowerCase().includes(KEY.slice(2));

function withWorker(dir: string, keyCipher: KeyCipher = cipher) {
  const worker = inProcessKeyWorker();
  const signers = new Signers(dir, keyCipher, undefined, silentLogger(), connectKeyWorker(worker.launch));
  return { worker, signers };
}

it('imports, signs and locks through the key worker, with the same codes as before', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'signers-'));
  const { worker, signers } = withWorker(dir);
  const codeOf = (promise: Promise<unknown>) =>
    promise.then(
      () => 'ok',
      (error: { code?: string }) => error.code,
    );
  expect(await codeOf(signers.unlockLocalKey(PASSPHRASE))).toBe('NO_LOCAL_KEY');
  expect(await codeOf(signers.importLocalKey('0x1234', PASSPHRASE))).toBe('INVALID_PRIVATE_KEY');
  expect(await codeOf(signers.importLocalKey(`0x${'f'.repeat(64)}`, PASSPHRASE))).toBe('INVALID_PRIVATE_KEY');
  expect(await codeOf(signers.importLocalKey(KEY, 'short'))).toBe('WEAK_PASSPHRASE');
  expect(readdirSync(dir)).toEqual([]);

  // Pasted as people paste it: spaces around, no 0x.
  expect(await signers.importLocalKey(`  ${KEY.slice(2)}\n`, PASSPHRASE)).toMatchObject({
    active: 'local',
    address: account.address,
    localKey: { unlocked: true, needsPassphrase: true },
  });
  expect(await codeOf(signers.importLocalKey(KEY, PASSPHRASE))).toBe('LOCAL_KEY_EXISTS');
  expect(keyHex(readFileSync(join(dir, LOCAL_KEY_FILE), 'utf8'))).toBe(false);

  // The worker signs exactly what the key signs in place: bigints crossed as strings and came back whole.
  expect(await signers.signTransaction(TX)).toBe(await account.signTransaction(TX));
  expect(await signers.signMessage('hello')).toEqual({
    address: account.address,
    signature: await account.signMessage({ message: 'hello' }),
  });
  // Only imports carried the key, towards the worker; no answer carried it back.
  const carried = worker.sent.filter((message) => keyHex(JSON.stringify(message)));
  expect(new Set(carried.map((message) => message.op))).toEqual(new Set(['import']));
  expect(worker.received.length).toBeGreaterThan(5);
  expect(worker.received.filter((message) => keyHex(JSON.stringify(message)))).toEqual([]);

  expect(await signers.lockLocalKey()).toMatchObject({ active: null, localKey: { unlocked: false } });
  expect(await codeOf(signers.signMessage('hello'))).toBe('SIGNER_LOCKED');
  expect(() => signers.requireAddress()).toThrow(expect.objectContaining({ code: 'SIGNER_LOCKED' }));
  expect(await codeOf(signers.unlockLocalKey('correct horse batterY'))).toBe('WRONG_PASSPHRASE');
  expect(await codeOf(signers.unlockLocalKey())).toBe('WRONG_PASSPHRASE');
  expect(await signers.unlockLocalKey(PASSPHRASE)).toMatchObject({ active: 'local', localKey: { unlocked: true } });
  expect((await signers.signMessage('again')).signature).toBe(await account.signMessage({ message: 'again' }));
  expect(worker.launches).toBe(1);

  expect(await signers.forgetLocalKey()).toMatchObject({ active: null, localKey: null });
  expect(readdirSync(dir)).toEqual([]);
});

it('opens a passphrase file of the version before the key worker', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'signers-'));
  // Written by that version's Signers for KEY with PASSPHRASE (scrypt 2^10).
  writeFileSync(
    join(dir, LOCAL_KEY_FILE),
    JSON.stringify({
      version: 1,
      address: account.address,
      sealed: {
        kind: 'scrypt-aes-256-gcm',
        n: 1024,
        r: 8,
        p: 1,
        salt: '452851c03f73da3f86893049f40cc5db',
        iv: '8d7def641122a72ec81daab8',
        ciphertext: 'cef98c2e2b4bad6e8aa1a91b10988db4dd4e9195bbde96e0f762dad47b650d23',
        tag: 'f187b6c1cde6de2ba48b805041b8f00d',
      },
    }),
  );
  const { signers } = withWorker(dir);
  expect(signers.status()).toMatchObject({ active: null, localKey: { address: account.address, unlocked: false } });
  await expect(signers.unlockLocalKey('correct horse batterY')).rejects.toMatchObject({ code: 'WRONG_PASSPHRASE' });
  expect(await signers.unlockLocalKey(PASSPHRASE)).toMatchObject({ active: 'local', address: account.address });
  expect(await signers.signTransaction(TX)).toBe(await account.signTransaction(TX));
});

it('locks the key when its worker dies, fails signing plainly, and unlocks again in a new worker', async () => {
  const { worker, signers } = withWorker(mkdtempSync(join(tmpdir(), 'signers-')));
  await signers.importLocalKey(KEY, PASSPHRASE);
  // Killed while a signature is in flight: that signature fails, main goes on.
  const inFlight = signers.signMessage('in flight');
  await new Promise((resolve) => setTimeout(resolve, 0));
  worker.crash();
  await expect(inFlight).rejects.toMatchObject({ code: 'SIGNER_LOCKED' });
  expect(signers.status()).toMatchObject({ active: null, localKey: { unlocked: false } });
  await expect(signers.signTransaction(TX)).rejects.toMatchObject({ code: 'SIGNER_LOCKED' });
  // Locking a dead worker starts none.
  await signers.lockLocalKey();
  expect(worker.launches).toBe(1);
  await signers.unlockLocalKey(PASSPHRASE);
  expect(worker.launches).toBe(2);
  expect(await signers.signTransaction(TX)).toBe(await account.signTransaction(TX));
});

/** A keychain that records what main gave it to seal. */
function fakeKeychain(): OsKeychain & { sealed: string[] } {
  const xor = (bytes: Buffer) => Buffer.from(bytes.map((b) => b ^ 0x5a));
  const sealed: string[] = [];
  return {
    sealed,
    isEncryptionAvailable: () => true,
    encryptString: (plain) => {
      sealed.push(plain);
      return xor(Buffer.from(plain, 'utf8'));
    },
    decryptString: (encrypted) => xor(encrypted).toString('utf8'),
  };
}

it('seals with the OS keychain only the worker key-encryption key, and opens at start without a passphrase', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'signers-'));
  const keychain = fakeKeychain();
  const first = withWorker(dir, keychainCipher(keychain));
  expect(await first.signers.importLocalKey(KEY)).toMatchObject({
    active: 'local',
    localKey: { needsPassphrase: false, unlocked: true },
  });
  expect(keychain.sealed).toHaveLength(1);
  expect(keychain.sealed[0]).toMatch(/^[0-9a-f]{64}$/);
  expect(keyHex(keychain.sealed.join())).toBe(false);
  const file = readFileSync(join(dir, LOCAL_KEY_FILE), 'utf8');
  expect(JSON.parse(file).sealed.kind).toBe('os-keychain-kek');
  expect(keyHex(file)).toBe(false);

  const next = withWorker(dir, keychainCipher(keychain));
  // Opening at start: shown unlocked at once, and a signature waits for it.
  expect(next.signers.status()).toMatchObject({ active: 'local', localKey: { unlocked: true } });
  expect(next.signers.requireAddress()).toBe(account.address);
  expect(await next.signers.signTransaction(TX)).toBe(await account.signTransaction(TX));
});

it('reseals a keychain record of the version before the key worker, once, so main never opens the key again', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'signers-'));
  const keychain = fakeKeychain();
  // What that version wrote: the key's hex itself in the keychain.
  const blob = keychain.encryptString(KEY.slice(2)).toString('base64');
  keychain.sealed.length = 0;
  writeFileSync(
    join(dir, LOCAL_KEY_FILE),
    JSON.stringify({ version: 1, address: account.address, sealed: { kind: 'os-keychain', blob } }),
  );
  const { signers } = withWorker(dir, keychainCipher(keychain));
  expect(await signers.signMessage('migrated')).toEqual({
    address: account.address,
    signature: await account.signMessage({ message: 'migrated' }),
  });
  const record = JSON.parse(readFileSync(join(dir, LOCAL_KEY_FILE), 'utf8'));
  expect(record).toMatchObject({ version: 1, address: account.address, sealed: { kind: 'os-keychain-kek' } });
  expect(keyHex(JSON.stringify(record))).toBe(false);
  expect(keychain.sealed.some(keyHex)).toBe(false);
  // A keychain that cannot open it: locked, and the person is told as before.
  const refusing = {
    ...keychain,
    decryptString: () => {
      throw new Error('locked keychain');
    },
  };
  const locked = withWorker(dir, keychainCipher(refusing));
  await expect(locked.signers.signMessage('no')).rejects.toMatchObject({ code: 'SIGNER_LOCKED' });
  await expect(locked.signers.unlockLocalKey()).rejects.toMatchObject({ code: 'WRONG_PASSPHRASE' });
});
