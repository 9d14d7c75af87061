import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger, lineLogger } from './createLogger';
import { rotatingFile } from './rotatingFile';

describe('createLogger', () => {
  it('writes JSON lines with level, time and component to the file, and the bare message to the stream', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'create-logger-')), 'companion.log');
    const file = rotatingFile(path);
    const shown: string[] = [];
    const logger = createLogger({ level: 'info', file, stream: { write: (text) => shown.push(text) } });
    logger.child({ component: 'indexer' }).info('indexer: caught up at block 7');
    logger.child({ component: 'chain' }).debug('not at info');
    file.close();
    expect(shown).toEqual(['indexer: caught up at block 7\n']);
    const [line, ...rest] = readFileSync(path, 'utf8').trimEnd().split('\n');
    expect(rest).toEqual([]);
    expect(JSON.parse(line ?? '')).toMatchObject({
      level: 30,
      component: 'indexer',
      msg: 'indexer: caught up at block 7',
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  it('logs nothing at silent', () => {
    const shown: string[] = [];
    createLogger({ level: 'silent', stream: { write: (text) => shown.push(text) } }).error('unseen');
    expect(shown).toEqual([]);
  });
});

describe('lineLogger', () => {
  it('hands every message, at every level, to the caller as a line', () => {
    const lines: string[] = [];
    const logger = lineLogger((line) => lines.push(line)).child({ component: 'devnet' });
    logger.debug('one');
    logger.error('two\nwith a stack');
    expect(lines).toEqual(['one', 'two\nwith a stack']);
  });
});
