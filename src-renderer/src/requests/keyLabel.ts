/*
 * An API key's label is written by whoever made the key, and the app shows it inside its own sentences ("asked by API
 * key “…” of wallet …"). Written as is, a label holding a closing quote could end the quote and go on in the app's
 * voice ("bot” of wallet 0x… (checked by the app) “x"), and control or format characters could reorder or hide text.
 * So a label is escaped so that nothing in it can close its quotes, and shown as a marked token of its own.
 */

/** The opening and closing marks a label is shown between; inside a shown label they only ever appear escaped. */
export const LABEL_OPEN = '“';
export const LABEL_CLOSE = '”';
/** Characters of a label shown before it is cut with "…": the full label (escaped) is on hover. */
export const LABEL_SHOWN_CHARS = 32;

const NAMED_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** A character that could pass for the app's quotes or hide what the label says, shown as an escape. */
const QUOTE_LIKE = /[\p{Quotation_Mark}`´″‶]/u;
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Zl}\p{Zp}]|[^\P{Zs} ]/u;

function escapedChar(char: string): string {
  if (char === '\\') return '\\\\';
  const named = NAMED_ESCAPES[char];
  if (named) return named;
  if (QUOTE_LIKE.test(char)) return `\\${char}`;
  if (INVISIBLE.test(char)) return `\\u{${(char.codePointAt(0) ?? 0).toString(16).toUpperCase()}}`;
  return char;
}

/**
 * `label` with every backslash, quote-like, control, format and unusual space character written as a visible escape
 * (`\"`, `\”`, `\n`, `\u{202E}`), so it holds no character that could close its quotes or hide text.
 *
 * @example escapeLabel('bot” said “ok') // 'bot\\” said \\“ok'
 */
export function escapeLabel(label: string): string {
  return [...label].map(escapedChar).join('');
}

/**
 * A label as shown inside a sentence: escaped, cut at LABEL_SHOWN_CHARS characters with "…", between “ and ”.
 *
 * @example quotedLabel('trading bot') // '“trading bot”'
 */
export function quotedLabel(label: string): string {
  const chars = [...label.trim()];
  const cut = chars.length > LABEL_SHOWN_CHARS;
  return `${LABEL_OPEN}${escapeLabel(chars.slice(0, LABEL_SHOWN_CHARS).join(''))}${cut ? '…' : ''}${LABEL_CLOSE}`;
}

/**
 * A sentence split around the label quoted in it (by quotedLabel): the text before, the label without its marks, and
 * the text after; null when it quotes none. The label's own quote marks are escaped, so its end is the first closing
 * mark not escaped by a backslash.
 */
export function splitQuotedLabel(text: string): { before: string; label: string; after: string } | null {
  const open = text.indexOf(LABEL_OPEN);
  if (open < 0) return null;
  for (let at = open + 1; at < text.length; at++) {
    if (text[at] === '\\') {
      at++;
      continue;
    }
    if (text[at] === LABEL_CLOSE) {
      return { before: text.slice(0, open), label: text.slice(open + 1, at), after: text.slice(at + 1) };
    }
  }
  return null;
}
