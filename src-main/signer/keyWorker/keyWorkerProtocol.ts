import type { AccessList, Address, Hex } from 'viem';
import type { KekSealed, PassphraseSealed, ScryptCost } from '../localKey/keyCipher';
import type { SignableCreation, SignableTransaction } from '../signer';
import type { SignerErrorCode } from '../signerError';

/*
 * What main and the key worker say to each other, one request and one reply at a time. The worker holds the local key
 * while it is unlocked; main sends sealed records, passphrases and prepared transactions, and gets back addresses,
 * sealed records and signatures. Only `import` carries a key towards the worker, and no reply carries one back.
 * Every message is JSON-safe (a child process's IPC is JSON; Electron's utilityProcess clones it).
 */

/** How the worker seals a key it imports: with the person's passphrase, or under a fresh KEK for the OS keychain. */
export type ImportSeal = { with: 'passphrase'; passphrase: string; cost: ScryptCost } | { with: 'kek' };

/** How the worker opens a sealed key: the passphrase, or the KEK main got back from the OS keychain (hex). */
export type KeyOpener =
  | { with: 'passphrase'; sealed: PassphraseSealed; passphrase: string }
  | { with: 'kek'; sealed: KekSealed; kek: string };

/** A prepared transaction on the wire: the bigints as decimal strings. */
export interface WireTransaction {
  chainId: number;
  to?: Address;
  nonce: number;
  gas: string;
  maxFeePerGas: string;
  maxPriorityFeePerGas: string;
  value: string;
  data?: Hex;
  accessList?: AccessList;
}

export type KeyWorkerRequest =
  | { op: 'import'; privateKey: string; seal: ImportSeal }
  | { op: 'unlock'; opener: KeyOpener }
  | { op: 'signTransaction'; tx: WireTransaction }
  | { op: 'signMessage'; message: string }
  | { op: 'lock' };

/** What each request answers. The key's bytes are never in it; a KEK only when the worker made one, for main to wrap. */
export interface KeyWorkerResults {
  import:
    | { with: 'passphrase'; address: Address; sealed: PassphraseSealed }
    | { with: 'kek'; address: Address; sealed: KekSealed; kek: string };
  unlock: { address: Address };
  signTransaction: { signed: Hex };
  signMessage: { signature: Hex };
  lock: { locked: true };
}

export type KeyWorkerResult<R extends KeyWorkerRequest> = KeyWorkerResults[R['op']];

/** A failure as it crosses: a SignerError's code, message and fix, or INTERNAL for anything unexpected. */
export interface WireError {
  code: SignerErrorCode | 'INTERNAL';
  message: string;
  fix?: string;
  retry?: boolean;
}

/**
 * The worker's first message, once it listens: a request sent before it would be lost (a process reads its channel
 * while its modules still load), so main holds requests until this arrives.
 */
export const KEY_WORKER_READY = { ready: true } as const;

export function isKeyWorkerReady(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { ready?: unknown }).ready === true;
}

export type KeyWorkerEnvelope = KeyWorkerRequest & { id: number };
export type KeyWorkerReply =
  | { id: number; ok: true; result: KeyWorkerResults[keyof KeyWorkerResults] }
  | { id: number; ok: false; error: WireError };

/** Whether `value` has a reply's shape (the worker is our own code; this guards against a mixed-up channel). */
export function isKeyWorkerReply(value: unknown): value is KeyWorkerReply {
  if (typeof value !== 'object' || value === null) return false;
  const { id, ok } = value as { id?: unknown; ok?: unknown };
  return typeof id === 'number' && typeof ok === 'boolean';
}

export function toWireTransaction(tx: SignableTransaction | SignableCreation): WireTransaction {
  return {
    chainId: tx.chainId,
    ...(tx.to ? { to: tx.to } : {}),
    nonce: tx.nonce,
    gas: tx.gas.toString(),
    maxFeePerGas: (tx.maxFeePerGas ?? 0n).toString(),
    maxPriorityFeePerGas: (tx.maxPriorityFeePerGas ?? 0n).toString(),
    value: (tx.value ?? 0n).toString(),
    ...(tx.data ? { data: tx.data } : {}),
    ...(tx.accessList?.length ? { accessList: tx.accessList } : {}),
  };
}

export function fromWireTransaction(wire: WireTransaction): SignableTransaction | SignableCreation {
  return {
    type: 'eip1559',
    chainId: wire.chainId,
    ...(wire.to ? { to: wire.to } : {}),
    nonce: wire.nonce,
    gas: BigInt(wire.gas),
    maxFeePerGas: BigInt(wire.maxFeePerGas),
    maxPriorityFeePerGas: BigInt(wire.maxPriorityFeePerGas),
    value: BigInt(wire.value),
    ...(wire.data ? { data: wire.data } : {}),
    ...(wire.accessList ? { accessList: wire.accessList } : {}),
  } as SignableTransaction | SignableCreation;
}
