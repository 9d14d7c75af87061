import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeViolations, seriousViolations } from '../support/accessibility';
import { startPrivateRpcStandIn } from '../support/privateRpcStandIn';
import { rehearsalPerson, uploadLogo } from '../support/rehearsalPerson';
import { startTestService, type TestService } from '../support/startTestService';
import { APP_TOKEN, ARTIFACTS, launchChromium, openApp, webUiOptions } from '../support/webUi';

/**
 * The private RPC in Settings: the running one shown (its key masked) in "Running now", the field and the trades box
 * saved for the next start, a URL that is not http(s) refused with what it must be; the section screenshotted at both
 * window sizes in light and dark.
 */
const WAIT = { timeout: 15_000, interval: 100 };
const SETTINGS_FILE = webUiOptions.settingsFile as string;
const SHOTS = join(ARTIFACTS, 'screens');

let service: TestService;
let browser: Browser;

beforeAll(async () => {
  rmSync(SETTINGS_FILE, { force: true });
  service = await startTestService(undefined, {
    ...webUiOptions,
    privateRpcUrl: 'https://rpc.builder.example/key/secret-123',
    privateTrades: true,
  });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await service?.dispose();
  rmSync(SETTINGS_FILE, { force: true });
});

describe('the private RPC in Settings', () => {
  it('shows the running one masked, refuses a URL that is not http(s), and saves one with its trades box', async () => {
    const { page, errors } = await openApp(browser, service.origin, '/settings');
    await expect
      .poll(() => page.getByTestId('app-private-rpc').textContent(), WAIT)
      .toBe('launches, buys and sells through https://rpc.builder.example/…');
    expect(await page.getByTestId('app-running').textContent()).not.toContain('secret-123');

    const field = page.getByTestId('settings-private-rpc');
    const trades = page.getByTestId('settings-private-trades');
    // Without a URL there is nothing to send trades through.
    expect(await trades.isDisabled()).toBe(true);
    await field.fill('wss://rpc.builder.example');
    await page.getByTestId('settings-save').click();
    const failure = page.getByText(/privateRpcUrl: a private RPC URL starts with http:\/\/ or https:\/\//);
    await failure.waitFor(WAIT);
    mkdirSync(SHOTS, { recursive: true });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(SHOTS, 'settings-private-rpc-refused-1280-light.png'), fullPage: true });

    await field.fill('https://rpc.builder.example/key/abc');
    await trades.check();
    await page.getByTestId('settings-save').click();
    await page.getByTestId('settings-saved').waitFor(WAIT);
    expect(JSON.parse(readFileSync(SETTINGS_FILE, 'utf8'))).toMatchObject({
      network: 'devnet',
      privateRpcUrl: 'https://rpc.builder.example/key/abc',
      privateTrades: true,
    });

    // Opened again, the form shows what was saved.
    await page.reload();
    await expect.poll(() => field.inputValue(), WAIT).toBe('https://rpc.builder.example/key/abc');
    expect(await trades.isChecked()).toBe(true);
    // The refused save is the one failed request (the browser logs its 422); nothing else went wrong.
    expect(errors.filter((error) => !error.includes('status of 422'))).toEqual([]);
    await page.close();
  });

  it('reads well at both window sizes, light and dark, with no serious accessibility fault', async () => {
    mkdirSync(SHOTS, { recursive: true });
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const viewport of [
        { width: 1440, height: 900 },
        { width: 1024, height: 700 },
      ]) {
        const { page, errors } = await openApp(browser, service.origin, '/settings', { viewport, colorScheme });
        await expect.poll(() => page.getByTestId('settings-private-rpc').inputValue(), WAIT).not.toBe('');
        // The whole page: an element shot would scroll the section under the sticky header on a small window.
        await page.screenshot({
          path: join(SHOTS, `settings-private-rpc-${viewport.width}-${colorScheme}.png`),
          fullPage: true,
        });
        const found = await seriousViolations(page);
        expect(found, describeViolations(found)).toEqual([]);
        expect(errors).toEqual([]);
        await page.close();
      }
    }
  });
});

describe('a transaction sent privately', () => {
  it('is marked in Activity, at both window sizes, light and dark', async () => {
    const standIn = await startPrivateRpcStandIn();
    const sending = await startTestService(undefined, {
      ...webUiOptions,
      privateRpcUrl: standIn.url,
      privateTrades: true,
    });
    try {
      standIn.forwardTo(`${sending.origin}/rpc`);
      const person = await rehearsalPerson(sending, 7, APP_TOKEN);
      const image = await uploadLogo(sending);
      const launched = await person.buildAndSend(
        '/build/launch',
        { name: 'Quiet Launch', symbol: 'QUIET', marketCapPair: '30', image },
        'launch',
      );
      expect(launched.main.settled.status).toBe('confirmed');
      // It went to the private RPC, and only there.
      expect(standIn.hashes()).toEqual([launched.main.hash]);
      mkdirSync(SHOTS, { recursive: true });
      for (const colorScheme of ['light', 'dark'] as const) {
        for (const viewport of [
          { width: 1440, height: 900 },
          { width: 1024, height: 700 },
        ]) {
          const { page, errors } = await openApp(browser, sending.origin, '/activity', { viewport, colorScheme });
          const row = page.getByTestId('activity-row').first();
          await expect.poll(() => row.getAttribute('data-status'), WAIT).toBe('confirmed');
          expect(await row.getByTestId('activity-private').textContent()).toBe('sent privately');
          await page.screenshot({ path: join(SHOTS, `activity-private-${viewport.width}-${colorScheme}.png`) });
          expect(errors).toEqual([]);
          await page.close();
        }
      }
    } finally {
      await sending.dispose();
      await standIn.close();
    }
  });
});
