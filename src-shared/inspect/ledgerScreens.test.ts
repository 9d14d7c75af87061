import { readFileSync } from 'node:fs';
import type { Address } from 'viem';
import { describe, expect, it } from 'vitest';
import type { PreparedTx } from '../schema/unsignedTx';
import { devnetKnownContracts } from './devnetContracts';
import { fieldScreens, type LedgerModel, ledgerModelOf, valueLines } from './ledgerScreens';
import { ledgerView } from './signingView';

/** One signing recorded on the real app through main's path: what was prepared, and what the device drew. */
interface Recorded {
  prepared: { wallet: Address; tx: PreparedTx; hash: string };
  screens: { events: { text: string }[] }[];
}

const recordings = (folder: string): Record<string, Recorded> =>
  JSON.parse(
    readFileSync(
      new URL(`../../test/fixtures/ledger-transcripts/main-path/${folder}/results.json`, import.meta.url),
      'utf8',
    ),
  );

/**
 * The texts the device drew from From to the last line of the hash, without the Flex's page footer ("Reject",
 * "2 of 4"): the part of the review the device view lays out.
 */
function deviceFieldTexts(recorded: Recorded): string[] {
  const texts = recorded.screens
    .flatMap((screen) => screen.events.map((event) => event.text))
    .filter((text) => text !== 'Reject' && !/^\d+ of \d+$/.test(text));
  const start = texts.indexOf('From');
  const end = texts.findIndex((text) => text.startsWith('Accept risk and sign') || text === 'Accept risk and ');
  return start < 0 ? [] : texts.slice(start, end);
}

const MODELS: [string, LedgerModel][] = [
  ['flex', 'flex'],
  ['nanosp', 'nanoSP'],
];

describe('the device view against the screens the real Ethereum app 1.22.0 drew', () => {
  const { known } = devnetKnownContracts();
  for (const [folder, model] of MODELS) {
    const recorded = recordings(folder);
    for (const name of ['buy31337', 'buy56', 'reject31337']) {
      const signing = recorded[name];
      if (!signing) throw new Error(`no ${name} in ${folder}`);
      const drawn = deviceFieldTexts(signing);
      // The Flex rejection was refused on its first page, before any field was drawn.
      if (drawn.length === 0) continue;
      it(`${folder} ${name}: every field title and value line, in order`, () => {
        const view = ledgerView(signing.prepared.tx, known, signing.prepared.wallet, model);
        expect(view.hash).toBe(signing.prepared.hash);
        const laidOut = view.screens?.fields.flatMap((field) => [field.title, ...field.lines]) ?? [];
        expect(laidOut).toEqual(drawn);
      });
    }
  }

  it('a hash fills four lines on a Flex, and two Nano pages of three lines and one', () => {
    const hash = recordings('nanosp').buy56?.prepared.hash ?? '';
    expect(valueLines(hash, 'flex')).toHaveLength(4);
    expect(fieldScreens('Tx hash', hash, 'nanoSP').map((page) => [page.title, page.lines.length])).toEqual([
      ['Tx hash (1/2)', 3],
      ['Tx hash (2/2)', 1],
    ]);
    // Stax is narrower than Flex, in a smaller font: five lines of a hash, which stay whole.
    const stax = valueLines(hash, 'stax');
    expect(stax.join('')).toBe(hash);
    expect(stax.length).toBeGreaterThanOrEqual(4);
  });

  it('breaks after a space when the next word does not fit, as the fees with their ticker show', () => {
    expect(valueLines('0.000187305669209784 BNB', 'flex')).toEqual(['0.00018730566920978', '4 BNB']);
    expect(valueLines('0.00018730566920978 BNB', 'flex')).toEqual(['0.00018730566920978 ', 'BNB']);
    expect(valueLines('0.01 BNB', 'nanoSP')).toEqual(['0.01 BNB']);
  });

  it("names the model from Ledger's own model ids", () => {
    expect(['europa', 'stax', 'nanoSP', 'nanoX', 'nanoS', 'apex', undefined].map(ledgerModelOf)).toEqual([
      'flex',
      'stax',
      'nanoSP',
      'nanoX',
      null,
      null,
      null,
    ]);
  });
});
