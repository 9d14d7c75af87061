import { closeSync, fstatSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

export interface RotatingFileOptions {
  /** The size past which the file is moved aside and a new one begun (5 MB by default). */
  maxBytes?: number;
  /** How many moved-aside files are kept: `file.1` the newest, up to `file.<keep>` (3 by default). */
  keep?: number;
}

/** A destination that only appends: what the logger writes its lines to. */
export interface LineSink {
  write(text: string): void;
}

/**
 * Appends to `file` synchronously, and before a write that would take it past `maxBytes` moves it to `file.1` (and
 * `file.1` to `file.2`, ... dropping the oldest), so the log a person attaches to a bug report stays small and a
 * crash never loses the lines before it. Synchronous on purpose: no worker thread, nothing buffered.
 *
 * @example createLogger({ level: 'info', file: rotatingFile(join(userData, 'logs/companion.log')) })
 */
export function rotatingFile(file: string, options: RotatingFileOptions = {}): LineSink & { close(): void } {
  const maxBytes = options.maxBytes ?? 5 * 1024 * 1024;
  const keep = options.keep ?? 3;
  mkdirSync(dirname(file), { recursive: true });
  let fd = openSync(file, 'a', 0o600);
  let size = fstatSync(fd).size;

  const rotate = () => {
    closeSync(fd);
    rmSync(`${file}.${keep}`, { force: true });
    for (let n = keep - 1; n >= 1; n--) {
      try {
        renameSync(`${file}.${n}`, `${file}.${n + 1}`);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    if (keep > 0) renameSync(file, `${file}.1`);
    else rmSync(file, { force: true });
    fd = openSync(file, 'a', 0o600);
    size = 0;
  };

  return {
    write(text) {
      const bytes = Buffer.from(text);
      // A line longer than the limit still goes in whole, alone in its file.
      if (size > 0 && size + bytes.length > maxBytes) rotate();
      writeSync(fd, bytes);
      size += bytes.length;
    },
    close() {
      closeSync(fd);
    },
  };
}
