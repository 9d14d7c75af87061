import type { Browser, Page } from 'playwright-core';
import type { Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestAccount, testAccounts } from '../../src-main/chain/devnet/testAccounts';
import { ledgerAccess } from '../../src-main/signer/ledger/ledgerAccess';
import { type LedgerModel, valueLines } from '../../src-shared/inspect/ledgerScreens';
import { LedgerEmulator } from '../support/ledgerEmulator';
import { startTradingFixture, type TradingFixture } from '../support/tradingFixture';
import { unsignedHashOf } from '../support/unsignedHash';
import {
  ARTIFACTS,
  approveUntilSettled,
  inEveryLook,
  launchChromium,
  openApp,
  screenshot,
  webUiOptions,
} from '../support/webUi';

const WAIT = { timeout: 15_000, interval: 100 };

/**
 * The hash as the review lays it out for `model`: its lines, checked to be the device's own breaks of the whole
 * hash, joined back into the hash.
 */
async function hashLaidOut(page: Page, model: LedgerModel): Promise<Hex> {
  const lines = await page.getByTestId('device-hash-line').allTextContents();
  const hash = lines.join('') as Hex;
  expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
  expect(lines).toEqual(valueLines(hash, model));
  return hash;
}
const INS_SIGN = 0x04;
/** The emulated Ledger holds the test mnemonic: the legacy path's account 1 is test account 1, which nothing else uses. */
const ACCOUNT = testAccounts()[1] as TestAccount;
const PATH = "44'/60'/0'/0/1";

// A new Ledger: blind signing off, as the real Ethereum app ships.
const emulator = new LedgerEmulator();
let f: TradingFixture;
let browser: Browser;

beforeAll(async () => {
  f = await startTradingFixture({ ...webUiOptions, ledger: ledgerAccess(async () => emulator) });
  browser = await launchChromium();
  await f.service.indexer.waitFor(await f.client.getBlockNumber({ cacheTime: 0 }));
});
afterAll(async () => {
  await browser?.close();
  await f?.service.dispose();
});

describe('a Ledger with blind signing off, as every new one is', () => {
  it('is said when the Ledger is chosen and before the first trade, walked through, and trades once turned on', async () => {
    const { page, errors } = await openApp(browser, f.service.origin, '/settings');
    const ledger = page.getByTestId('ledger');
    await ledger.locator('select').selectOption('legacy');
    await ledger.getByRole('button', { name: 'List accounts' }).click();
    await ledger.locator('tr', { hasText: PATH }).getByRole('button', { name: 'Use' }).click();
    await expect
      .poll(() => page.getByTestId('signer-badge').textContent(), WAIT)
      .toContain(ACCOUNT.address.slice(0, 6));

    // Choosing the account read the app's configuration: the walk-through is there at once.
    await expect.poll(() => page.getByTestId('ledger-blind-signing').getAttribute('data-state'), WAIT).toBe('off');
    const guide = page.getByTestId('ledger-blind-signing-guide');
    expect(await guide.textContent()).toContain('Blind signing');
    expect(await guide.textContent()).toContain('1.22.0');
    await screenshot(page, 'ledger-blind-signing-off');

    // A trade asked anyway stops before the review, with the same walk-through; nothing reached the device.
    await page.goto(`${f.service.origin}/token/${f.bnbToken.token}`);
    await page.getByTestId('trade-amount').fill('0.1');
    await page.getByTestId('quote').waitFor();
    await page.getByTestId('trade-submit').click();
    const progress = page.getByTestId('progress');
    await expect.poll(() => progress.getAttribute('data-stage'), WAIT).toBe('failed');
    expect(await progress.getAttribute('data-code')).toBe('LEDGER_BLIND_SIGNING_DISABLED');
    expect(await page.getByTestId('review').count()).toBe(0);
    await progress.getByTestId('ledger-blind-signing-guide').waitFor();
    expect(emulator.receivedFor(INS_SIGN)).toEqual([]);

    // The person turns it on on the device and checks again from the guide; the trade then goes through the review.
    emulator.blindSigning = true;
    await progress.getByTestId('ledger-check-again').click();
    await progress.getByTestId('ledger-blind-signing-on').waitFor();
    await page.getByTestId('trade-submit').click();
    // The review says what the device will show, and the hash to compare with it.
    await page.getByTestId('review').waitFor();
    const device = page.getByTestId('review-device');
    expect(await device.textContent()).toContain('Your Ledger Flex will show');
    const shown = await hashLaidOut(page, 'flex');
    // From first, broken as the Flex breaks an address; chain 31337's "???" said and named in BNB; the Flex's gesture.
    expect(await device.getByTestId('device-field').first().textContent()).toBe(
      ['From', ...valueLines(ACCOUNT.address, 'flex')].join(''),
    );
    expect(await device.getByTestId('device-unknown-ticker').textContent()).toMatch(/network 31337.*0\.1 BNB/);
    expect(await device.getByTestId('device-gesture').textContent()).toContain('hold to sign');
    await screenshot(page, 'review-ledger');
    await inEveryLook(page, async ({ width, height, colorScheme }) => {
      // As the person sees it when they compare: the hash scrolled into view in the dialog.
      await page.getByTestId('device-gesture').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${ARTIFACTS}/review-ledger-flex-${width}x${height}-${colorScheme}.png` });
    });
    expect(await approveUntilSettled(page)).toBe('done');
    const sent = (await page.getByTestId('progress-hash').getAttribute('data-hash')) as Hex;
    expect(await unsignedHashOf(f.client as never, sent)).toBe(shown);
    expect(emulator.receivedFor(INS_SIGN).length).toBeGreaterThan(0);
    await expect
      .poll(async () => (await f.client.getTransactionCount({ address: ACCOUNT.address })) > 0, WAIT)
      .toBe(true);

    await page.getByTestId('signer-badge').click();
    await expect.poll(() => page.getByTestId('ledger-blind-signing').getAttribute('data-state'), WAIT).toBe('on');
    expect(await page.getByTestId('ledger-blind-signing-guide').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('lays the review out as a Nano S Plus shows it once that model is plugged in: pages of three lines, both buttons', async () => {
    // The same seed on a Nano S Plus: the configuration read before the trade names the new model.
    emulator.useModel(0x5011);
    const { page, errors } = await openApp(browser, f.service.origin, `/token/${f.bnbToken.token}`);
    await page.getByTestId('trade-amount').fill('0.1');
    await page.getByTestId('quote').waitFor();
    await page.getByTestId('trade-submit').click();
    const device = page.getByTestId('review-device');
    await expect.poll(() => device.getAttribute('data-model'), WAIT).toBe('nanoSP');
    const shown = await hashLaidOut(page, 'nanoSP');
    expect(await device.getByTestId('device-hash-field').locator('p').first().allTextContents()).toEqual([
      'Tx hash (1/2)',
    ]);
    expect(await device.getByTestId('device-gesture').textContent()).toContain('press both buttons');
    await inEveryLook(page, async ({ width, height, colorScheme }) => {
      // As the person sees it when they compare: the hash scrolled into view in the dialog.
      await page.getByTestId('device-gesture').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${ARTIFACTS}/review-ledger-nanosp-${width}x${height}-${colorScheme}.png` });
    });
    expect(await approveUntilSettled(page)).toBe('done');
    const sent = (await page.getByTestId('progress-hash').getAttribute('data-hash')) as Hex;
    expect(await unsignedHashOf(f.client as never, sent)).toBe(shown);
    expect(errors).toEqual([]);
    await page.close();
  });
});
