/**
 * What the desktop app needs before Electron runs it from this folder: Electron's binary, and better-sqlite3 compiled
 * for Electron (built here when missing). `npm run dev` runs this first (predev) and stops with what is missing;
 * `npm start` asks it too, and falls back to the headless server.
 */
import { ensureElectronSqlite } from './buildElectronSqlite';
import { findElectron } from './findElectron';

/** The Electron binary once everything is ready, or what is missing, in a sentence that says how to get it. */
export function prepareDesktop(root: string): { electron: string } | { missing: string } {
  const electron = findElectron(root);
  if (!electron) {
    return {
      missing:
        'Electron is not installed here: its binary is downloaded on first use from GitHub, outside the npm registry. On a machine that reaches it, `node node_modules/electron/install.js` fetches it.',
    };
  }
  const sqlite = ensureElectronSqlite(root);
  return 'problem' in sqlite ? { missing: sqlite.problem } : { electron };
}

if (import.meta.filename === process.argv[1]) {
  const prepared = prepareDesktop(process.cwd());
  if ('missing' in prepared) {
    console.error(`${prepared.missing}\nWithout Electron, \`npm start\` runs the headless server with the web UI.`);
    process.exit(1);
  }
}
