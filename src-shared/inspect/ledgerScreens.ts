/**
 * How a Ledger breaks a value into lines and pages, so the review can lay the transaction hash (and every other
 * field) out line for line as the connected model shows it.
 *
 * The figures are the device's own, from Ledger's SDK (ledger-secure-sdk v25.12.3, lib_nbgl): the advance width of
 * each printable ASCII character in the font the Ethereum app writes values in, the font's kerning, and the width a
 * value may take (the screen's width less its two border margins). The line-breaking rule is nbgl's: characters are
 * added while they fit; the one that does not starts a new line, or, when the value has a word delimiter before it
 * (space, '-', '_'), the line ends just after that delimiter. Checked against the screens the real app 1.22.0 showed
 * on a Flex and a Nano S Plus (test/fixtures/ledger-transcripts/main-path).
 */

/** The Ledger models whose layout is known (see `ledgerModelOf`). */
export type LedgerModel = 'flex' | 'stax' | 'nanoSP' | 'nanoX';

interface ModelLayout {
  /** What the person calls it. */
  name: string;
  /** Advance width in pixels of the characters 0x20 (space) to 0x7e (~), before kerning. */
  widths: readonly number[];
  kerning: number;
  /** Pixels a value's line may take. */
  maxWidth: number;
  /** A field's value over this many lines is cut into pages ("Tx hash (1/2)"); null: one scrolling list. */
  linesPerPage: number | null;
  /** The hash's title on this model's screen. */
  hashTitle: string;
  /** What the person does on the device to accept "Blind signing ahead", and to sign. */
  acceptRisk: string;
  gesture: string;
}

/** Inter Medium 36 px: the large value font on Flex (nbgl_font_inter_medium_36.inc). */
const INTER_MEDIUM_36 = [
  10, 11, 14, 23, 23, 30, 23, 8, 14, 14, 19, 24, 10, 17, 10, 13, 23, 17, 22, 23, 24, 22, 23, 21, 23, 23, 10, 10, 24, 24,
  24, 19, 35, 25, 24, 26, 26, 22, 21, 27, 27, 16, 20, 24, 20, 32, 27, 28, 23, 28, 23, 23, 23, 27, 25, 35, 24, 25, 23,
  14, 13, 14, 17, 17, 18, 21, 23, 20, 23, 21, 13, 22, 22, 9, 9, 20, 10, 32, 22, 22, 22, 22, 14, 19, 13, 21, 20, 30, 20,
  20, 20, 14, 12, 14, 24,
] as const;

/** Inter Medium 32 px: the large value font on Stax (nbgl_font_inter_medium_32.inc). */
const INTER_MEDIUM_32 = [
  8, 9, 13, 20, 21, 27, 21, 7, 12, 12, 17, 21, 9, 15, 9, 12, 21, 15, 20, 21, 21, 20, 20, 19, 20, 20, 9, 9, 21, 21, 21,
  17, 31, 22, 21, 24, 23, 19, 19, 24, 24, 15, 18, 21, 18, 29, 24, 25, 20, 25, 21, 21, 21, 24, 22, 31, 21, 22, 20, 12,
  12, 12, 15, 15, 16, 18, 20, 18, 20, 19, 12, 20, 19, 8, 8, 18, 9, 28, 19, 19, 20, 20, 12, 17, 12, 19, 18, 26, 18, 18,
  18, 12, 11, 12, 21,
] as const;

/** Open Sans Regular 11 px, 1 bpp: the value font on the Nanos (nbgl_font_open_sans_regular_11.inc), kerning 1. */
const OPEN_SANS_REGULAR_11 = [
  4, 4, 5, 8, 7, 10, 10, 3, 4, 4, 7, 7, 4, 5, 4, 5, 7, 7, 7, 7, 9, 7, 7, 7, 7, 7, 4, 4, 7, 7, 7, 6, 11, 8, 8, 8, 9, 7,
  7, 9, 9, 4, 4, 8, 7, 11, 9, 10, 8, 10, 8, 7, 8, 9, 8, 11, 8, 7, 7, 5, 5, 5, 7, 6, 7, 7, 8, 6, 8, 7, 6, 7, 8, 4, 4, 7,
  4, 11, 8, 8, 8, 8, 5, 6, 5, 8, 7, 10, 7, 7, 6, 5, 7, 5, 7,
] as const;

const TOUCHSCREEN = {
  kerning: 0,
  linesPerPage: null,
  hashTitle: 'Transaction hash',
  acceptRisk: 'tap "Accept risk and continue"',
  gesture: 'hold to sign',
} as const;

const NANO = {
  widths: OPEN_SANS_REGULAR_11,
  kerning: 1,
  // 128 pixels less two margins of 7; three lines of a value per page (NB_MAX_LINES_IN_REVIEW).
  maxWidth: 114,
  linesPerPage: 3,
  hashTitle: 'Tx hash',
  acceptRisk: 'press both buttons',
  gesture: 'press both buttons',
} as const;

const LAYOUTS: Record<LedgerModel, ModelLayout> = {
  // 480 pixels less two margins of 32.
  flex: { name: 'Ledger Flex', widths: INTER_MEDIUM_36, maxWidth: 416, ...TOUCHSCREEN },
  // 400 pixels less two margins of 24.
  stax: { name: 'Ledger Stax', widths: INTER_MEDIUM_32, maxWidth: 352, ...TOUCHSCREEN },
  nanoSP: { name: 'Ledger Nano S Plus', ...NANO },
  nanoX: { name: 'Ledger Nano X', ...NANO },
};

export const ledgerModelName = (model: LedgerModel) => LAYOUTS[model].name;

/**
 * Our model for Ledger's own model id (`DeviceModelId` of @ledgerhq/devices, which names it from the USB product id:
 * the Flex is 'europa' there); null for the others (Nano S, Blue, Apex), whose layout is not known here.
 */
export function ledgerModelOf(deviceModelId: string | null | undefined): LedgerModel | null {
  switch (deviceModelId) {
    case 'europa':
      return 'flex';
    case 'stax':
    case 'nanoSP':
    case 'nanoX':
      return deviceModelId;
    default:
      return null;
  }
}

const isDelimiter = (char: string) => char === ' ' || char === '-' || char === '_';

/**
 * A value as the model breaks it into lines (nbgl's rule, see above). Characters outside printable ASCII do not occur
 * in what the review lays out (hex, decimal amounts, tickers); they are counted as wide as 'W', so a line never
 * claims to hold more than the device's.
 *
 * @example valueLines('0xea04f8c6…6618cc', 'flex') // ['0xea04f8c67056393bf', '89846e14fe7569bd49', …, 'fbcc6618cc']
 */
export function valueLines(value: string, model: LedgerModel): string[] {
  const { widths, kerning, maxWidth } = LAYOUTS[model];
  const widthOf = (char: string) => (widths[char.charCodeAt(0) - 0x20] ?? widths[0x57 - 0x20] ?? 0) - kerning;
  const lines: string[] = [];
  let rest = value;
  while (rest.length > 0) {
    let width = 0;
    let length = 0;
    // Where the line would end after the last delimiter seen past its start, and nbgl's condition for using it.
    let afterDelimiter = 0;
    let widthAtDelimiter = 0;
    for (const char of rest) {
      const charWidth = widthOf(char);
      if (isDelimiter(char)) {
        afterDelimiter = length + 1;
        widthAtDelimiter = width;
      }
      if (width + charWidth > maxWidth) {
        if (widthAtDelimiter > 0) length = afterDelimiter;
        break;
      }
      length += 1;
      width += charWidth;
    }
    // A single character wider than a line still takes one, as the device draws it.
    length = Math.max(length, 1);
    lines.push(rest.slice(0, length));
    rest = rest.slice(length);
  }
  return lines;
}

/** One field on the device: its title as the device writes it and its value's lines as the device breaks them. */
export interface LedgerField {
  title: string;
  lines: string[];
}

/**
 * A field as the model shows it: one field with all its lines on a Flex or Stax (which scroll a list of fields), or,
 * on a Nano, one page a field, cut into pages of three lines titled "(1/2)", "(2/2)" when longer.
 *
 * @example fieldScreens('Tx hash', hash, 'nanoSP') // [{ title: 'Tx hash (1/2)', lines: [3 lines] }, { title: 'Tx hash (2/2)', … }]
 */
export function fieldScreens(title: string, value: string, model: LedgerModel): LedgerField[] {
  const lines = valueLines(value, model);
  const { linesPerPage } = LAYOUTS[model];
  if (linesPerPage === null || lines.length <= linesPerPage) return [{ title, lines }];
  const pages = Math.ceil(lines.length / linesPerPage);
  return Array.from({ length: pages }, (_, page) => ({
    title: `${title} (${page + 1}/${pages})`,
    lines: lines.slice(page * linesPerPage, (page + 1) * linesPerPage),
  }));
}

/** What the person does on the model: to accept "Blind signing ahead", and to sign at the end; the hash's title. */
export function modelWords(model: LedgerModel): { acceptRisk: string; gesture: string; hashTitle: string } {
  const { acceptRisk, gesture, hashTitle } = LAYOUTS[model];
  return { acceptRisk, gesture, hashTitle };
}
