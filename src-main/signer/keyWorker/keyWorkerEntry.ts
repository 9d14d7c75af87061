/**
 * The key worker process: holds the unlocked local key and answers main's requests (keyWorkerProtocol.ts), away from
 * the process that runs the HTTP server. Started by keyWorkerLaunchers.ts, as Electron's utilityProcess in the
 * desktop app (messages on process.parentPort) or as a Node child process headless (messages on its IPC channel).
 */
import { createKeyHolder } from './keyHolder';
import { KEY_WORKER_READY, type KeyWorkerEnvelope, type KeyWorkerReply } from './keyWorkerProtocol';

/** Electron's parentPort in a utility process, as much of it as the worker uses. */
interface ParentPort {
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
  postMessage(message: unknown): void;
}

const holder = createKeyHolder();
const parentPort = (process as { parentPort?: ParentPort }).parentPort;

function serve(reply: (message: KeyWorkerReply | typeof KEY_WORKER_READY) => void) {
  return (message: unknown) => {
    if (typeof message !== 'object' || message === null || typeof (message as { id?: unknown }).id !== 'number') return;
    void holder.handle(message as KeyWorkerEnvelope).then(reply);
  };
}

if (parentPort) {
  const port = parentPort;
  const handle = serve((reply) => port.postMessage(reply));
  port.on('message', (event) => handle(event.data));
  port.postMessage(KEY_WORKER_READY);
} else if (process.send) {
  const handle = serve((reply) => process.send?.(reply));
  process.on('message', handle);
  // Main is gone (or let go of us): nothing is left to sign for, and the key goes with the process.
  process.on('disconnect', () => process.exit(0));
  process.send(KEY_WORKER_READY);
} else {
  process.stderr.write('The key worker runs only as a process the app starts.\n');
  process.exit(2);
}
