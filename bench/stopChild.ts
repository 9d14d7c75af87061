import type { ChildProcess } from 'node:child_process';

/** How long a server child gets to exit on SIGTERM before it is killed. */
const EXIT_TIMEOUT_MS = 10_000;

/** Stops a server child: SIGTERM, then SIGKILL if it has not exited in time; resolves once it has exited. */
export async function stopChild(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), EXIT_TIMEOUT_MS);
  try {
    await exited;
  } finally {
    clearTimeout(timer);
  }
}
