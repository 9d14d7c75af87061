/**
 * The real service in a process of its own, for test/keyWorker.test.ts, which reads this process's memory to show
 * the local key is not in it. Forked with tsx and one JSON argument: { dataDir, appToken, keyInMain }. `keyInMain`
 * is the control: the key worker's handler runs inside this process, where the key was before the key worker.
 *
 * Over its IPC channel it sends { ready: { origin, url } } once the API answers and the devnet's seed is in; on
 * { heapSnapshot: path } it writes a V8 heap snapshot there (after a full GC: only what is still reachable) and
 * answers { heapSnapshot: path }; on { stop: true }, or SIGTERM, it closes the service (and its key worker) and exits.
 */
import { writeHeapSnapshot } from 'node:v8';
import { silentLogger } from '../../src-main/log/createLogger';
import { passphraseCipher } from '../../src-main/signer/localKey/keyCipher';
import { startService } from '../../src-main/startService';
import { inProcessKeyWorker } from './inProcessKeyWorker';

const { dataDir, appToken, keyInMain } = JSON.parse(process.argv[2] ?? '{}') as {
  dataDir: string;
  appToken: string;
  keyInMain?: boolean;
};

const service = await startService({
  port: 0,
  dataDir,
  network: 'devnet',
  appToken,
  keyCipher: passphraseCipher({ n: 2 ** 12, r: 8, p: 1 }),
  logger: silentLogger(),
  ...(keyInMain ? { keyWorker: inProcessKeyWorker().launch } : {}),
});
await service.seeded;

let stopping: Promise<void> | undefined;
const stop = () => {
  stopping ??= service.close().then(
    () => process.exit(0),
    (error: Error) => {
      process.stderr.write(`closing failed: ${error.message}\n`);
      process.exit(1);
    },
  );
  return stopping;
};
process.on('SIGTERM', () => void stop());
process.on('disconnect', () => void stop());
process.on('message', (message: { heapSnapshot?: string; stop?: boolean }) => {
  if (message.heapSnapshot) {
    writeHeapSnapshot(message.heapSnapshot);
    process.send?.({ heapSnapshot: message.heapSnapshot });
  }
  if (message.stop) void stop();
});
process.send?.({ ready: { origin: service.origin, url: service.url } });
