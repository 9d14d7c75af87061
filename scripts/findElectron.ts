import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The Electron binary under `root`'s node_modules, or undefined when it is not installed. Mirrors
 * node_modules/electron/index.js without requiring it: that module tries to download the binary when it is missing.
 */
export function findElectron(root: string): string | undefined {
  const dir = join(root, 'node_modules/electron');
  const pathFile = join(dir, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8') : undefined;
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  const binary = override ? join(override, relative ?? 'electron') : relative && join(dir, 'dist', relative);
  return binary && existsSync(binary) ? binary : undefined;
}
