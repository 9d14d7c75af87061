import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rotatingFile } from './rotatingFile';

function logFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'rotating-file-')), 'logs', 'companion.log');
}

describe('rotatingFile', () => {
  it('creates its folder and appends to what an earlier run left', () => {
    const file = logFile();
    const first = rotatingFile(file);
    first.write('one\n');
    first.close();
    const second = rotatingFile(file);
    second.write('two\n');
    second.close();
    expect(readFileSync(file, 'utf8')).toBe('one\ntwo\n');
  });

  it('moves the file aside before a write would pass the limit, keeping the newest old files only', () => {
    const file = logFile();
    const log = rotatingFile(file, { maxBytes: 10, keep: 2 });
    for (const line of ['aaaa\n', 'bbbb\n', 'cccc\n', 'dddd\n', 'eeee\n', 'ffff\n', 'gggg\n']) log.write(line);
    log.close();
    expect(readFileSync(file, 'utf8')).toBe('gggg\n');
    expect(readFileSync(`${file}.1`, 'utf8')).toBe('eeee\nffff\n');
    expect(readFileSync(`${file}.2`, 'utf8')).toBe('cccc\ndddd\n');
    expect(existsSync(`${file}.3`)).toBe(false);
  });

  it('counts what an earlier run left towards the limit', () => {
    const file = logFile();
    rotatingFile(file).close();
    writeFileSync(file, '123456789\n');
    const log = rotatingFile(file, { maxBytes: 12, keep: 3 });
    log.write('next\n');
    log.close();
    expect(readFileSync(file, 'utf8')).toBe('next\n');
    expect(readFileSync(`${file}.1`, 'utf8')).toBe('123456789\n');
  });

  it('writes a line longer than the limit whole, in a file of its own', () => {
    const file = logFile();
    const log = rotatingFile(file, { maxBytes: 4 });
    log.write('a long line\n');
    log.write('b\n');
    log.close();
    expect(readFileSync(`${file}.1`, 'utf8')).toBe('a long line\n');
    expect(readFileSync(file, 'utf8')).toBe('b\n');
  });
});
