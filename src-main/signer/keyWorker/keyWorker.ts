import type { Address, Hex } from 'viem';
import type { SignableCreation, SignableTransaction } from '../signer';
import { SignerError, type SignerErrorCode } from '../signerError';
import {
  type ImportSeal,
  isKeyWorkerReady,
  isKeyWorkerReply,
  type KeyOpener,
  type KeyWorkerEnvelope,
  type KeyWorkerRequest,
  type KeyWorkerResult,
  type KeyWorkerResults,
  toWireTransaction,
  type WireError,
} from './keyWorkerProtocol';

/**
 * Main's end of a running key worker process, whichever kind started it: Electron's utilityProcess in the desktop
 * app, a Node child process headless.
 */
export interface KeyWorkerPort {
  send(message: KeyWorkerEnvelope): void;
  onMessage(listener: (message: unknown) => void): void;
  /** Called once when the process is gone (crashed, killed, could not start), with a reason for the log. */
  onExit(listener: (reason: string) => void): void;
  /** Whether main's event loop should wait for the worker: only while a request is in flight. */
  hold?(busy: boolean): void;
  kill(): void;
  /** The operating system's process id, once started. */
  readonly pid: number | undefined;
}

/** Starts a key worker process; see keyWorkerLaunchers.ts. */
export type KeyWorkerLauncher = () => KeyWorkerPort;

/**
 * The local key's holder as main uses it: main sends what to do and gets back addresses, sealed records and
 * signatures; the key itself lives in the worker process. The process starts at the first request and, should it
 * stop, starts again at the next one (locked: whatever it held went with it).
 */
export interface KeyWorker {
  /** Seals `privateKey` (as pasted) and holds it unlocked; main writes the sealed record. */
  importKey(privateKey: string, seal: ImportSeal): Promise<KeyWorkerResults['import']>;
  /** Opens a sealed key and holds it unlocked; answers its address. */
  unlock(opener: KeyOpener): Promise<Address>;
  signTransaction(tx: SignableTransaction | SignableCreation): Promise<Hex>;
  signMessage(message: string): Promise<Hex>;
  /** Drops the key. Starts no process: a worker that is not running holds no key. */
  lock(): Promise<void>;
  /** `listener` hears when a running worker stopped on its own (and its key with it). */
  onStopped(listener: (reason: string) => void): void;
  /** Stops the worker for good: the service is shutting down. */
  close(): void;
}

const SIGNER_CODES = new Set<string>([
  'NO_SIGNER',
  'NO_LOCAL_KEY',
  'LOCAL_KEY_EXISTS',
  'SIGNER_LOCKED',
  'WRONG_PASSPHRASE',
  'WEAK_PASSPHRASE',
  'INVALID_PRIVATE_KEY',
] satisfies SignerErrorCode[]);

/** The worker's failure as main throws it: a SignerError with its own code, or an unexpected (INTERNAL) error. */
function fromWireError(error: WireError): Error {
  if (SIGNER_CODES.has(error.code)) {
    return new SignerError(error.code as SignerErrorCode, error.message, error.fix, { retry: error.retry ?? false });
  }
  return new Error(error.message);
}

/** The refusal of every request in flight, and of signing, once the worker stopped. */
export function keyWorkerStopped(reason: string): SignerError {
  return new SignerError(
    'SIGNER_LOCKED',
    `The local key is locked: the process that held it stopped (${reason}).`,
    'Unlock the local key again.',
  );
}

/**
 * The KeyWorker over processes started by `launch`. A worker that exits fails what was in flight with SIGNER_LOCKED
 * and tells `onStopped` listeners; main keeps running.
 */
export function connectKeyWorker(launch: KeyWorkerLauncher): KeyWorker {
  let port: KeyWorkerPort | undefined;
  /** Requests for a worker that has not said it listens yet. */
  let outbox: KeyWorkerEnvelope[] | undefined;
  let closed = false;
  let nextId = 1;
  const pending = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();
  const stoppedListeners: ((reason: string) => void)[] = [];

  function failAll(error: Error): void {
    const waiting = [...pending.values()];
    pending.clear();
    for (const { reject } of waiting) reject(error);
  }

  function stopped(from: KeyWorkerPort, reason: string): void {
    if (port !== from) return;
    port = undefined;
    outbox = undefined;
    failAll(keyWorkerStopped(reason));
    if (!closed) for (const listener of stoppedListeners) listener(reason);
  }

  function deliver(to: KeyWorkerPort, message: KeyWorkerEnvelope): void {
    try {
      to.send(message);
    } catch (cause) {
      // The channel closed under us: the exit event follows, or already came.
      const waiting = pending.get(message.id);
      pending.delete(message.id);
      waiting?.reject(keyWorkerStopped(cause instanceof Error ? cause.message : String(cause)));
    }
  }

  function settle(from: KeyWorkerPort, message: unknown): void {
    if (isKeyWorkerReady(message) && from === port && outbox) {
      const held = outbox;
      outbox = undefined;
      for (const envelope of held) deliver(from, envelope);
      return;
    }
    if (!isKeyWorkerReply(message)) return;
    const waiting = pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id);
    if (pending.size === 0) from.hold?.(false);
    if (message.ok) waiting.resolve(message.result);
    else waiting.reject(fromWireError(message.error));
  }

  function started(): KeyWorkerPort {
    if (port) return port;
    if (closed) throw keyWorkerStopped('the app is shutting down');
    let launched: KeyWorkerPort;
    try {
      launched = launch();
    } catch (cause) {
      throw new SignerError('SIGNER_LOCKED', 'The process that holds the local key could not start.', 'Try again.', {
        cause,
      });
    }
    launched.onMessage((message) => settle(launched, message));
    launched.onExit((reason) => stopped(launched, reason));
    port = launched;
    outbox = [];
    return launched;
  }

  function request<R extends KeyWorkerRequest>(body: R): Promise<KeyWorkerResult<R>> {
    let to: KeyWorkerPort;
    try {
      to = started();
    } catch (error) {
      return Promise.reject(error);
    }
    const id = nextId++;
    return new Promise<KeyWorkerResult<R>>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (result: unknown) => void, reject });
      to.hold?.(true);
      const envelope = { ...body, id };
      if (outbox) outbox.push(envelope);
      else deliver(to, envelope);
    });
  }

  return {
    importKey: (privateKey, seal) => request({ op: 'import', privateKey, seal }),
    async unlock(opener) {
      return (await request({ op: 'unlock', opener })).address;
    },
    async signTransaction(tx) {
      return (await request({ op: 'signTransaction', tx: toWireTransaction(tx) })).signed;
    },
    async signMessage(message) {
      return (await request({ op: 'signMessage', message })).signature;
    },
    async lock() {
      if (!port) return;
      // A worker that stops before it answers holds no key either.
      await request({ op: 'lock' }).catch((error: unknown) => {
        if (!(error instanceof SignerError && error.code === 'SIGNER_LOCKED')) throw error;
      });
    },
    onStopped(listener) {
      stoppedListeners.push(listener);
    },
    close() {
      closed = true;
      const running = port;
      port = undefined;
      outbox = undefined;
      failAll(keyWorkerStopped('the app is shutting down'));
      running?.kill();
    },
  };
}
