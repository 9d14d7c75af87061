import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';

/** Expects a secret to appear nowhere in the bytes of the service's database (main file and write-ahead log). */
export function expectNotStored(dataDir: string, secret: string): void {
  for (const file of ['app.sqlite', 'app.sqlite-wal']) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(dataDir, file));
    } catch {
      continue;
    }
    expect(bytes.includes(secret), `${secret.slice(0, 6)}… in ${file}`).toBe(false);
  }
}
