import { type LevelWithSilent, type Logger, pino } from 'pino';
import type { LineSink } from './rotatingFile';

export type { Logger };

export interface LoggerOptions {
  level: LevelWithSilent;
  /** Where pino's JSON lines are appended (a rotatingFile): the log a person attaches to a bug report. */
  file?: LineSink;
  /** Where each message goes as a plain line for a person at a terminal (stderr headless); none when absent. */
  stream?: { write(text: string): unknown };
}

/** The message of one of pino's JSON lines, as the terminal shows it: just the message, as the service always has. */
function readableLine(json: string): string {
  try {
    const { msg } = JSON.parse(json) as { msg?: unknown };
    return `${typeof msg === 'string' ? msg : json.trimEnd()}\n`;
  } catch {
    return json;
  }
}

/**
 * The service's logger: pino, writing synchronously (no transport, no worker thread: they resolve files by path,
 * which the bundled Electron main and headless server cannot) to the file as JSON and to the stream as readable
 * lines. Each part logs through a child with its `component` (http, indexer, chain, devnet, media, signer,
 * appChannel, referrals, settings), so one part's lines can be picked out of the file.
 *
 * @example createLogger({ level: 'info', stream: process.stderr }).child({ component: 'indexer' }).info('caught up')
 */
export function createLogger(options: LoggerOptions): Logger {
  const { file, stream } = options;
  return pino(
    { level: options.level, base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime },
    {
      write(line: string) {
        file?.write(line);
        stream?.write(readableLine(line));
      },
    },
  );
}

/**
 * A logger handing each message to `onLine` as a plain line, at every level: how tests read what the service logged,
 * and how a command line tool prints what a part of the service logs.
 *
 * @example const lines: string[] = []; startService({ ..., logger: lineLogger((line) => lines.push(line)) })
 */
export function lineLogger(onLine: (line: string) => void): Logger {
  return createLogger({ level: 'trace', stream: { write: (text) => onLine(text.replace(/\n$/, '')) } });
}

/** A logger that writes nothing: for parts run where no one reads their log. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
