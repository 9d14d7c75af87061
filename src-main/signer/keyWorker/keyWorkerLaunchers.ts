import { type ChildProcess, fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { KeyWorkerLauncher, KeyWorkerPort } from './keyWorker';
import type { KeyWorkerEnvelope } from './keyWorkerProtocol';

/*
 * The two ways the key worker process starts. The desktop app (src-main/index.ts) uses Electron's utilityProcess,
 * which needs no Node beside Electron; the headless service (startService's default, so `npm run serve`, `npm start`'s
 * fallback and the tests) forks a Node child process. Both run the same entry, keyWorkerEntry.ts:
 * - from the sources (tsx, vitest), this module is a .ts file beside it, and the child runs it through tsx;
 * - built, the entry is `keyWorker.js` beside the bundle (out/serve/ by scripts/buildServe.ts, out/main/ by
 *   electron.vite.config.ts), and this module is inside that bundle.
 */

/** The file name of the built worker, beside the bundle that starts it. */
export const KEY_WORKER_BUNDLE = 'keyWorker.js';

/** The worker's entry and the Node flags it needs, from where this module runs. */
function keyWorkerEntry(): { entry: string; execArgv: string[] } {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.ts')) {
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    return { entry: join(dirname(here), 'keyWorkerEntry.ts'), execArgv: ['--import', tsx] };
  }
  return { entry: join(dirname(here), KEY_WORKER_BUNDLE), execArgv: [] };
}

/** Calls `listener` once, however many ways a process says it is gone. */
function exitOnce(): { fire(reason: string): void; listen(listener: (reason: string) => void): void } {
  let reason: string | undefined;
  const listeners: ((reason: string) => void)[] = [];
  return {
    fire(why) {
      if (reason !== undefined) return;
      reason = why;
      for (const listener of listeners) listener(why);
    },
    listen(listener) {
      if (reason !== undefined) listener(reason);
      else listeners.push(listener);
    },
  };
}

/** The headless launcher: a Node child process over its IPC channel, which never keeps the service from exiting. */
export function forkKeyWorker(): KeyWorkerLauncher {
  return () => {
    const { entry, execArgv } = keyWorkerEntry();
    const child: ChildProcess = fork(entry, [], {
      execArgv,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      serialization: 'json',
    });
    const exit = exitOnce();
    child.on('exit', (code, signal) => exit.fire(signal ? `killed by ${signal}` : `exit code ${code}`));
    // Could not start, or could not be sent to: either way it cannot answer.
    child.on('error', (error) => {
      exit.fire(error.message);
      child.kill();
    });
    // The channel closes just before the exit is known; the exit says more (killed by what), so it gets a moment.
    child.on('disconnect', () => {
      setTimeout(() => exit.fire('its channel closed'), 1000).unref();
      child.kill();
    });
    child.unref();
    child.channel?.unref();
    return {
      send(message: KeyWorkerEnvelope) {
        child.send(message, (error) => {
          if (error) exit.fire(error.message);
        });
      },
      onMessage: (listener) => child.on('message', listener),
      onExit: exit.listen,
      hold(busy) {
        if (busy) child.channel?.ref();
        else child.channel?.unref();
      },
      kill: () => child.kill(),
      get pid() {
        return child.pid;
      },
    } satisfies KeyWorkerPort;
  };
}

/** As much of Electron's utilityProcess as the launcher uses (passed in: the signer never imports electron). */
export interface UtilityProcessApi {
  fork(modulePath: string, args?: string[], options?: { serviceName?: string }): UtilityProcessChild;
}

export interface UtilityProcessChild {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  kill(): boolean;
  readonly pid: number | undefined;
}

/** The desktop launcher: Electron's utilityProcess running the built `entry` (out/main/keyWorker.js). */
export function utilityKeyWorker(utilityProcess: UtilityProcessApi, entry: string): KeyWorkerLauncher {
  return () => {
    const child = utilityProcess.fork(entry, [], { serviceName: 'Launchpad Companion key worker' });
    const exit = exitOnce();
    child.on('exit', (code) => exit.fire(`exit code ${code}`));
    return {
      send: (message) => child.postMessage(message),
      onMessage: (listener) => child.on('message', listener),
      onExit: exit.listen,
      kill: () => {
        child.kill();
      },
      get pid() {
        return child.pid;
      },
    } satisfies KeyWorkerPort;
  };
}
