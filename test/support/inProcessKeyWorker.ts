import { createKeyHolder } from '../../src-main/signer/keyWorker/keyHolder';
import type { KeyWorkerLauncher, KeyWorkerPort } from '../../src-main/signer/keyWorker/keyWorker';
import { KEY_WORKER_READY, type KeyWorkerEnvelope } from '../../src-main/signer/keyWorker/keyWorkerProtocol';

/** Through JSON, as a child process's IPC carries it: a bigint left in a message fails here as it would there. */
const overTheWire = <T>(message: T): T => JSON.parse(JSON.stringify(message)) as T;

export interface InProcessKeyWorker {
  launch: KeyWorkerLauncher;
  /** How many workers were started. */
  readonly launches: number;
  /** Ends the running worker as a crash would: what it held is gone, what was in flight gets no answer. */
  crash(): void;
  /** Messages sent to workers so far, as they crossed. */
  readonly sent: KeyWorkerEnvelope[];
  /** What workers answered so far, as it crossed. */
  readonly received: unknown[];
}

/**
 * The key worker's own handler, run in this process behind the same port a real worker has: for unit tests of the
 * Signers (no process to start), and as the control of the test that looks for the key in main's memory (here it is
 * there, as it was before the key worker).
 */
export function inProcessKeyWorker(): InProcessKeyWorker {
  let launches = 0;
  let current: (() => void) | undefined;
  const sent: KeyWorkerEnvelope[] = [];
  const received: unknown[] = [];
  const launch: KeyWorkerLauncher = () => {
    launches += 1;
    const holder = createKeyHolder();
    let dead = false;
    const messageListeners: ((message: unknown) => void)[] = [];
    const exitListeners: ((reason: string) => void)[] = [];
    const emit = (message: unknown) =>
      setTimeout(() => {
        if (dead) return;
        received.push(overTheWire(message));
        for (const listener of messageListeners) listener(overTheWire(message));
      });
    emit(KEY_WORKER_READY);
    const die = () => {
      if (dead) return;
      dead = true;
      for (const listener of exitListeners) listener('killed by SIGKILL');
    };
    current = die;
    return {
      send(message) {
        if (dead) throw new Error('channel closed');
        sent.push(overTheWire(message));
        void holder.handle(overTheWire(message)).then(emit);
      },
      onMessage: (listener) => messageListeners.push(listener),
      onExit: (listener) => exitListeners.push(listener),
      kill: die,
      pid: undefined,
    } satisfies KeyWorkerPort;
  };
  return {
    launch,
    get launches() {
      return launches;
    },
    crash: () => current?.(),
    sent,
    received,
  };
}
