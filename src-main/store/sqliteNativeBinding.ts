import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * Where `npm run native:electron` (scripts/buildElectronSqlite.ts) puts better-sqlite3's addon compiled for one
 * Electron, relative to the app's root (the project folder, or the packaged app's asar). The version in the folder's
 * name keeps a build for an older Electron from being loaded by a newer one.
 *
 * @example electronSqliteAddon('45.4.1', 'linux', 'x64') // 'out/native/electron-45.4.1-linux-x64/better_sqlite3.node'
 */
export function electronSqliteAddon(electronVersion: string, platform: string, arch: string): string {
  return `out/native/electron-${electronVersion}-${platform}-${arch}/better_sqlite3.node`;
}

/**
 * The better-sqlite3 addon this process must load. Under plain Node (tests, the headless server) it is undefined:
 * better-sqlite3 loads its own build from node_modules. Electron has another ABI, so inside it the copy compiled for
 * that Electron is named, and node_modules' build is never rebuilt in place (the tests would break on it).
 */
export function sqliteNativeBinding(): string | undefined {
  const electronVersion = process.versions.electron;
  if (!electronVersion) return undefined;
  // Electron's module exists only inside Electron: required here, after the check, the store still loads under Node.
  const { app } = createRequire(import.meta.url)('electron') as typeof import('electron');
  const addon = join(app.getAppPath(), electronSqliteAddon(electronVersion, process.platform, process.arch));
  if (!existsSync(addon)) {
    throw new Error(
      `better-sqlite3 has no build for Electron ${electronVersion} (${process.platform}-${process.arch}) at ${addon}: run \`npm run native:electron\`.`,
    );
  }
  return addon;
}
