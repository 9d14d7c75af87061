import { describe, expect, it } from 'vitest';
import { intentSourceText } from './intentSourceText';
import { escapeLabel, LABEL_SHOWN_CHARS, quotedLabel, splitQuotedLabel } from './keyLabel';

const WALLET = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const AT = '2026-11-28T14:03:00.000Z';

/** What the "asked by" line says for a key with `label`. */
const sourceOf = (label: string) =>
  intentSourceText({ source: { kind: 'key', at: AT, key: { label, wallet: WALLET } } } as never);

describe('a key label in the "asked by" line', () => {
  it('quotes a plain label as it is', () => {
    expect(quotedLabel('trading bot')).toBe('“trading bot”');
    expect(sourceOf('trading bot')).toMatch(/^API key “trading bot” of wallet 0x3C44/);
  });

  it('cannot close its quotes and go on in the app’s voice', () => {
    const hostile = 'bot” of wallet 0x0000000000000000000000000000000000000000 (verified by the app) “x';
    const text = sourceOf(hostile);
    const parts = splitQuotedLabel(text);
    // The label is everything the key's maker wrote, and the app's own words around it are only the app's.
    expect(parts?.before).toBe('API key ');
    expect(parts?.label.startsWith('bot\\” of wallet')).toBe(true);
    expect(parts?.after.startsWith(` of wallet ${WALLET}, at `)).toBe(true);
    expect(parts?.after).not.toContain('verified');
    // Each quote-like character is escaped, straight quotes and guillemets included.
    expect(escapeLabel(`a"b'c«d»e„f‘g’h\`i`)).toBe('a\\"b\\\'c\\«d\\»e\\„f\\‘g\\’h\\`i');
  });

  it('shows control, format and odd space characters as visible escapes, and backslashes doubled', () => {
    expect(escapeLabel('line\nbreak\ttab')).toBe('line\\nbreak\\ttab');
    expect(escapeLabel('abc\u202Eevil')).toBe('abc\\u{202E}evil');
    expect(escapeLabel('zero\u200Bwidth')).toBe('zero\\u{200B}width');
    expect(escapeLabel('no\u00A0break\u2028line')).toBe('no\\u{A0}break\\u{2028}line');
    expect(escapeLabel('\u0007bell')).toBe('\\u{7}bell');
    // A backslash of the label's own cannot escape the closing mark.
    const text = sourceOf('ends with \\');
    expect(text).toContain('“ends with \\\\”');
    expect(splitQuotedLabel(text)?.label).toBe('ends with \\\\');
  });

  it('is cut to a length a line can hold, with the cut marked', () => {
    const long = 'x'.repeat(64);
    expect(quotedLabel(long)).toBe(`“${'x'.repeat(LABEL_SHOWN_CHARS)}…”`);
    // Cut by characters, never inside a surrogate pair.
    expect(quotedLabel('🦉'.repeat(40))).toBe(`“${'🦉'.repeat(LABEL_SHOWN_CHARS)}…”`);
  });

  it('finds no label where none is quoted', () => {
    expect(splitQuotedLabel('this app, at 28 Nov 2026, 14:03')).toBeNull();
  });
});
