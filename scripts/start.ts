// `npm start`: the desktop app when Electron's binary is installed, else the headless server with the web UI.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureElectronSqlite } from './buildElectronSqlite';
import { buildServe, SERVE_BUNDLE } from './buildServe';
import { findElectron } from './findElectron';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const args = process.argv.slice(2);

/** A package's bin script, run with this Node rather than through a shell or npx. */
function binOf(pkg: string, bin: string): string {
  return join(dirname(require.resolve(`${pkg}/package.json`)), bin);
}

function runOrExit(command: string, commandArgs: string[]): void {
  const { status, signal } = spawnSync(command, commandArgs, { cwd: root, stdio: 'inherit' });
  if (status !== 0) process.exit(status ?? 128 + (signal ? constants.signals[signal] : 1));
}

/** Runs the long-lived child, relays SIGINT/SIGTERM to it, and exits with its code. */
function runAndForward(command: string, commandArgs: string[], env: NodeJS.ProcessEnv = process.env): void {
  // Its own process group: a terminal Ctrl+C reaches only this script, which relays it below.
  const child: ChildProcess = spawn(command, commandArgs, {
    cwd: root,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true,
  });
  // npm, tsx and the terminal each deliver the same Ctrl+C: relay one per burst, so a later press still gets through.
  let lastRelay = 0;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (Date.now() - lastRelay < 1000) return;
      lastRelay = Date.now();
      child.kill(signal);
    });
  }
  child.on('error', (error) => {
    console.error(`Could not start ${command}: ${error.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (signal ? constants.signals[signal] : 1)));
}

/** The newest modification time of any file under `dir`. */
function newestMtime(dir: string): number {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((entry) => statSync(join(dir, entry)).mtimeMs)
    .reduce((a, b) => Math.max(a, b), 0);
}

function webUiIsFresh(): boolean {
  const built = join(root, 'out/web/index.html');
  if (!existsSync(built)) return false;
  const sources = Math.max(newestMtime(join(root, 'src-renderer')), statSync(join(root, 'vite.web.config.ts')).mtimeMs);
  return statSync(built).mtimeMs > sources;
}

/**
 * Electron 45 downloads its binary on first use rather than at install. Try that once, quietly: on a desktop with
 * internet it brings the app; offline it fails in a fraction of a second and the headless fallback follows.
 */
function installElectron(): string | undefined {
  spawnSync(process.execPath, [join(root, 'node_modules/electron/install.js')], {
    cwd: root,
    stdio: 'ignore',
    timeout: 300_000,
  });
  return findElectron(root);
}

const electron = findElectron(root) ?? installElectron();
// Electron loads better-sqlite3 compiled for its own ABI: built on the first start (a few minutes), then kept.
const electronSqlite = electron ? ensureElectronSqlite(root) : undefined;
if (electron && electronSqlite && 'addon' in electronSqlite) {
  runOrExit(process.execPath, [binOf('electron-vite', 'bin/electron-vite.js'), 'build']);
  // An inherited ELECTRON_RUN_AS_NODE would start Electron as plain Node.
  const { ELECTRON_RUN_AS_NODE: _, ...env } = process.env;
  runAndForward(electron, ['.', ...args], env);
} else {
  console.log(
    electronSqlite && 'problem' in electronSqlite
      ? `${electronSqlite.problem} Running the headless server with the web UI instead.`
      : 'Electron is not installed here (its binary could not be downloaded); running the headless server with the web UI instead.',
  );
  if (!webUiIsFresh()) {
    runOrExit(process.execPath, [binOf('vite', 'bin/vite.js'), 'build', '--config', 'vite.web.config.ts']);
  }
  buildServe(root);
  runAndForward(process.execPath, [SERVE_BUNDLE, '--web', 'out/web', ...args]);
}
