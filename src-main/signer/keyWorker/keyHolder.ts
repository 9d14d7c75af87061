import { type Address, type Hex, isHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import {
  MIN_PASSPHRASE_LENGTH,
  newKek,
  openWithKek,
  openWithPassphrase,
  sealWithKek,
  sealWithPassphrase,
  WrongPassphraseError,
} from '../localKey/keyCipher';
import { createLocalKeySigner } from '../localKey/localKeySigner';
import type { Signer } from '../signer';
import { SignerError } from '../signerError';
import {
  fromWireTransaction,
  type ImportSeal,
  type KeyOpener,
  type KeyWorkerEnvelope,
  type KeyWorkerReply,
  type KeyWorkerRequest,
  type KeyWorkerResults,
  type WireError,
} from './keyWorkerProtocol';

/** What the key worker does with each request; runs in the key worker process only. */
export interface KeyHolder {
  handle(message: KeyWorkerEnvelope): Promise<KeyWorkerReply>;
}

const invalidKey = (message: string, fix: string) => new SignerError('INVALID_PRIVATE_KEY', message, fix);

/** The pasted key as 32 bytes: 64 hex digits, with or without 0x, a valid secp256k1 scalar. */
function parsePrivateKey(pasted: string): Hex {
  const trimmed = typeof pasted === 'string' ? pasted.trim() : '';
  const key = (trimmed.startsWith('0x') ? trimmed : `0x${trimmed}`) as Hex;
  if (!isHex(key) || key.length !== 66) {
    throw invalidKey('A private key is 32 bytes: 64 hex digits.', 'Paste the whole key.');
  }
  try {
    privateKeyToAccount(key);
  } catch {
    throw invalidKey('That is not a valid secp256k1 private key.', 'Check the key.');
  }
  return key;
}

function wrongPassphrase(cause: unknown): SignerError {
  return new SignerError('WRONG_PASSPHRASE', 'The passphrase does not open the stored key.', 'Type it again.', {
    cause,
  });
}

const locked = () => new SignerError('SIGNER_LOCKED', 'The local key is locked.', 'Unlock it with its passphrase.');

/**
 * The key worker's state: the one unlocked local key, as a signer, or none. Requests are handled one at a time, in
 * the order they came, so a lock sent after a signature never overtakes it.
 */
export function createKeyHolder(): KeyHolder {
  let signer: Signer | undefined;
  let tail: Promise<unknown> = Promise.resolve();

  /** Holds `secret` (32 bytes) as the unlocked key and wipes the buffer it came in. */
  function hold(secret: Uint8Array): Promise<Address> {
    const key = `0x${Buffer.from(secret.buffer, secret.byteOffset, secret.byteLength).toString('hex')}` as Hex;
    secret.fill(0);
    signer = createLocalKeySigner(key);
    return signer.getAddress();
  }

  async function importKey(privateKey: string, seal: ImportSeal): Promise<KeyWorkerResults['import']> {
    const key = parsePrivateKey(privateKey);
    if (seal.with === 'passphrase' && (seal.passphrase ?? '').length < MIN_PASSPHRASE_LENGTH) {
      throw new SignerError(
        'WEAK_PASSPHRASE',
        `The passphrase must have at least ${MIN_PASSPHRASE_LENGTH} characters.`,
        'Choose a longer passphrase; it encrypts the key on disk.',
      );
    }
    const secret = Buffer.from(key.slice(2), 'hex');
    if (seal.with === 'passphrase') {
      const sealed = sealWithPassphrase(secret, seal.passphrase, seal.cost);
      return { with: 'passphrase', address: await hold(secret), sealed };
    }
    const kek = newKek();
    const sealed = sealWithKek(secret, kek);
    const kekHex = kek.toString('hex');
    kek.fill(0);
    return { with: 'kek', address: await hold(secret), sealed, kek: kekHex };
  }

  async function unlock(opener: KeyOpener): Promise<KeyWorkerResults['unlock']> {
    let secret: Uint8Array;
    try {
      if (opener.with === 'passphrase') {
        secret = openWithPassphrase(opener.sealed, opener.passphrase);
      } else {
        const kek = Buffer.from(typeof opener.kek === 'string' ? opener.kek : '', 'hex');
        secret = openWithKek(opener.sealed, kek);
        kek.fill(0);
      }
    } catch (cause) {
      if (cause instanceof WrongPassphraseError) throw wrongPassphrase(cause);
      throw cause;
    }
    return { address: await hold(secret) };
  }

  async function run(request: KeyWorkerRequest): Promise<KeyWorkerResults[keyof KeyWorkerResults]> {
    switch (request.op) {
      case 'import':
        return importKey(request.privateKey, request.seal);
      case 'unlock':
        return unlock(request.opener);
      case 'signTransaction': {
        if (!signer) throw locked();
        return { signed: await signer.signTransaction(fromWireTransaction(request.tx)) };
      }
      case 'signMessage': {
        if (!signer) throw locked();
        return { signature: await signer.signMessage(request.message) };
      }
      case 'lock':
        signer = undefined;
        return { locked: true };
      default:
        throw new Error(`The key worker has no operation ${String((request as { op?: unknown }).op).slice(0, 40)}.`);
    }
  }

  return {
    handle(message) {
      const { id } = message;
      const reply = tail.then(async (): Promise<KeyWorkerReply> => {
        try {
          return { id, ok: true, result: await run(message) };
        } catch (error) {
          return { id, ok: false, error: toWireError(error, message.op) };
        }
      });
      tail = reply;
      return reply;
    },
  };
}

/**
 * A failure as main will see it. A SignerError crosses whole (code, message, fix). Anything else is INTERNAL, and
 * only names itself while no key is in play: an import's or unlock's unexpected error is not echoed, in case it
 * quotes what it was given.
 */
function toWireError(error: unknown, op: KeyWorkerRequest['op']): WireError {
  if (error instanceof SignerError) {
    return {
      code: error.code,
      message: error.message,
      ...(error.fix ? { fix: error.fix } : {}),
      ...(error.retry ? { retry: true } : {}),
    };
  }
  const quiet = op === 'import' || op === 'unlock';
  return {
    code: 'INTERNAL',
    message: quiet
      ? `The key worker could not ${op === 'import' ? 'import' : 'open'} the key.`
      : `The key worker could not ${op}: ${error instanceof Error ? error.message : String(error)}`,
  };
}
