import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SavedAppSettings } from '../../src-shared/appChannelTypes';

export type { SavedAppSettings };

/** The saved settings, or none when the file is missing or unreadable (an unreadable file is never overwritten silently). */
export function readAppSettings(file: string): { settings: SavedAppSettings; problem?: string } {
  if (!existsSync(file)) return { settings: {} };
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      return { settings: {}, problem: `${file} is not a JSON object; its settings are ignored.` };
    }
    return { settings: parsed as SavedAppSettings };
  } catch (error) {
    return { settings: {}, problem: `${file} cannot be read (${(error as Error).message}); its settings are ignored.` };
  }
}

/** Writes the whole file or nothing (temp file, then rename). */
export function writeAppSettings(file: string, settings: SavedAppSettings): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(`${file}.tmp`, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
}
