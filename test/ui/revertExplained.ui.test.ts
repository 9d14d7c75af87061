import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rehearsalPerson, uploadLogo } from '../support/rehearsalPerson';
import { startRehearsalProcess } from '../support/rehearsalProcess';
import { startTestService, type TestService } from '../support/startTestService';
import { APP_TOKEN, ARTIFACTS, launchChromium, openApp, webUiOptions } from '../support/webUi';

/**
 * A launch blocked by a mempool front-runner at BSC's cadence, as the person then sees it in Activity: why it failed
 * and what to do, in words, not "reverted". Screenshots at both window sizes, light and dark, in
 * test-results/screens/activity-reverted-<width>-<theme>.png.
 */
let service: TestService;
let browser: Browser;

beforeAll(async () => {
  service = await startTestService(undefined, { ...webUiOptions, blockTimeMs: 750 });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await service?.dispose();
});

describe('a launch someone priced the pool of first', () => {
  it('is explained in Activity: who did what, that nothing was launched, and to build it again', async () => {
    const person = await rehearsalPerson(service, 7, APP_TOKEN);
    const image = await uploadLogo(service);
    // Real bids in the way (1 BNB, far beyond the dust the factory sells into when it takes a pool over): refused.
    const adversary = await startRehearsalProcess('adversary', [
      '--kind',
      'frontrun',
      '--bids',
      '1',
      '--url',
      service.origin,
    ]);
    let settled: { status: string } | undefined;
    try {
      // Early in a block, so the front-runner has the block's time to see it (its race, not the clock's).
      const head = await service.chain.client.getBlockNumber({ cacheTime: 0 });
      await expect
        .poll(() => service.chain.client.getBlockNumber({ cacheTime: 0 }), { timeout: 5_000 })
        .toBeGreaterThan(head);
      const launched = await person.buildAndSend(
        '/build/launch',
        { name: 'Blocked Launch', symbol: 'BLKD', marketCapPair: '30', image, firstBuy: '0.1' },
        'launch',
      );
      settled = launched.main.settled;
    } finally {
      await adversary.stop();
    }
    expect(settled?.status).toBe('reverted');
    for (const viewport of [
      { width: 1440, height: 900 },
      { width: 1024, height: 700 },
    ]) {
      for (const colorScheme of ['light', 'dark'] as const) {
        const { page, errors } = await openApp(browser, service.origin, '/activity', { viewport, colorScheme });
        const row = page.getByTestId('activity-row').first();
        await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain('priced this token');
        expect(await row.textContent()).toContain('Build the launch again');
        await page.screenshot({
          path: `${ARTIFACTS}/screens/activity-reverted-${viewport.width}-${colorScheme}.png`,
          fullPage: true,
        });
        expect(errors).toEqual([]);
        await page.close();
      }
    }
  });
});
