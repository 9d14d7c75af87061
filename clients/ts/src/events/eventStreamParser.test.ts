import { describe, expect, it } from 'vitest';
import { EventStreamParser, type ServerSentEvent } from './eventStreamParser';

/** Every event of `text` fed in the pieces given. */
function parse(pieces: string[]): { events: ServerSentEvent[]; retryMs: number | undefined } {
  const parser = new EventStreamParser();
  const events = pieces.flatMap((piece) => parser.push(piece));
  return { events, retryMs: parser.retryMs };
}

/** The same text fed whole, in single characters, and split at every point into two and three pieces. */
function splits(text: string): string[][] {
  const out: string[][] = [[text], [...text]];
  for (let i = 0; i <= text.length; i++) {
    out.push([text.slice(0, i), text.slice(i)]);
    for (let j = i; j <= text.length; j += 3) out.push([text.slice(0, i), text.slice(i, j), text.slice(j)]);
  }
  return out;
}

const STREAM = [
  'retry: 2500',
  ': keep-alive',
  'event: block',
  'id: 41',
  'data: {"block":41,"hash":"0xab","at":null}',
  '',
  'event: launch',
  'id: 42-0',
  'data: {"token":"0x1",',
  'data: "symbol":"CAT"}',
  '',
  ': keep-alive',
  'event: trade',
  'id: 42-0-1',
  'data:{"side":"buy"}',
  '',
  '',
].join('\n');

const EXPECTED: ServerSentEvent[] = [
  { event: 'block', id: '41', data: '{"block":41,"hash":"0xab","at":null}' },
  { event: 'launch', id: '42-0', data: '{"token":"0x1",\n"symbol":"CAT"}' },
  { event: 'trade', id: '42-0-1', data: '{"side":"buy"}' },
];

describe('EventStreamParser', () => {
  it('reads events, multi-line data, comments and retry however the stream is cut', () => {
    for (const pieces of splits(STREAM)) {
      const { events, retryMs } = parse(pieces);
      expect(events, JSON.stringify(pieces)).toEqual(EXPECTED);
      expect(retryMs).toBe(2500);
    }
  });

  it('takes CRLF, CR and LF line ends, and a CRLF cut between its CR and LF is one line end', () => {
    for (const end of ['\r\n', '\r']) {
      const text = STREAM.replaceAll('\n', end);
      for (const pieces of splits(text)) expect(parse(pieces).events, JSON.stringify(pieces)).toEqual(EXPECTED);
    }
    // A lone CR then a LF in the next piece is one end; CR, CR is two (a blank line: dispatch).
    expect(parse(['data: a\r', '\ndata: b\r', '\r']).events).toEqual([{ event: 'message', id: '', data: 'a\nb' }]);
    expect(parse(['data: a\r', '', '\n', '\n']).events).toEqual([{ event: 'message', id: '', data: 'a' }]);
  });

  it('never dispatches an event the stream did not end with a blank line', () => {
    expect(parse(['event: trade\nid: 7\ndata: {}\n']).events).toEqual([]);
    expect(parse(['event: trade\nid: 7\ndata: {}']).events).toEqual([]);
  });

  it('follows the standard on fields: one space dropped, no colon, empty data, NUL ids, bad retry, BOM', () => {
    const { events, retryMs } = parse([
      '\uFEFFdata:  two spaces\n\n',
      'data\n\n',
      'id: a\0b\ndata: x\n\n',
      'retry: 12x\nretry: 40\nretry\n',
      'unknown: field\nevent: e\nid\ndata: y\n\n',
      'event: only a type\n\n',
      'data: z\n\n',
    ]);
    expect(events).toEqual([
      { event: 'message', id: '', data: ' two spaces' },
      { event: 'message', id: '', data: '' },
      { event: 'message', id: '', data: 'x' },
      { event: 'e', id: '', data: 'y' },
      // The type of an event with no data does not carry over to the next one.
      { event: 'message', id: '', data: 'z' },
    ]);
    expect(retryMs).toBe(40);
  });

  it('keeps the last id for later events that send none', () => {
    expect(parse(['id: 5\ndata: a\n\ndata: b\n\n']).events.map((e) => e.id)).toEqual(['5', '5']);
  });
});
