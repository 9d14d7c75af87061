import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { lineLogger } from '../log/createLogger';
import { passphraseCipher } from './localKey/keyCipher';
import { LOCAL_KEY_FILE } from './localKey/localKeyFile';
import { SignerQueue } from './signerQueue';
import { Signers } from './signers';

const cipher = passphraseCipher({ n: 2 ** 10, r: 8, p: 1 });

it('starts without a key when the key file is damaged, keeping the damaged file aside for repair', () => {
  const dir = mkdtempSync(join(tmpdir(), 'signers-'));
  writeFileSync(join(dir, LOCAL_KEY_FILE), '{"version": 1, "address": "0x12');
  const lines: string[] = [];
  const signers = new Signers(
    dir,
    cipher,
    undefined,
    lineLogger((line) => lines.push(line)),
  );
  expect(signers.status()).toMatchObject({ active: null, localKey: null });
  const aside = readdirSync(dir).filter((name) => name.startsWith(`${LOCAL_KEY_FILE}.unreadable-`));
  expect(aside).toHaveLength(1);
  expect(readFileSync(join(dir, aside[0] as string), 'utf8')).toBe('{"version": 1, "address": "0x12');
  expect(lines).toHaveLength(1);
  expect(() => signers.requireAddress()).toThrow(expect.objectContaining({ code: 'NO_SIGNER' }));
});

it('runs signer requests one at a time, in order, a failed one not stopping the next', async () => {
  const queue = new SignerQueue();
  const order: string[] = [];
  const job = (name: string, ms: number, fail = false) =>
    queue.run(async () => {
      order.push(`start ${name}`);
      await new Promise((resolve) => setTimeout(resolve, ms));
      order.push(`end ${name}`);
      if (fail) throw new Error(name);
      return name;
    });
  const results = await Promise.allSettled([job('a', 20), job('b', 1, true), job('c', 1)]);
  expect(order).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  expect(queue.pending).toBe(0);
});
