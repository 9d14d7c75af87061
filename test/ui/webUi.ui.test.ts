import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchChromium as launchBrowser } from '../../scripts/chromium';
import { startTestService, type TestService } from '../support/startTestService';
import { launchChromium } from '../support/webUi';

const root = join(import.meta.dirname, '..', '..');
const artifacts = join(root, 'test-results');

let service: TestService | undefined;
let browser: Browser | undefined;

beforeAll(async () => {
  service = await startTestService(undefined, { webRoot: join(root, 'out/web') });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await service?.dispose();
});

it('shows the network and every contract address from /settings in a real browser', async () => {
  if (!browser || !service) throw new Error('setup failed');
  const page = await browser.newPage();
  const failures: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') failures.push(message.text());
  });
  await page.goto(`${service.origin}/settings`);
  await expect.poll(() => page.getByTestId('network').textContent()).toBe('devnet');
  expect(await page.getByTestId('chain-id').textContent()).toBe('31337');
  const settings = (await (await fetch(`${service.url}/settings`)).json()) as {
    contracts: Record<string, string | null>;
  };
  for (const [key, address] of Object.entries(settings.contracts)) {
    const row = await page.getByTestId(`contract-${key}`).textContent();
    expect(row, key).toContain(address ?? '');
  }
  expect(await page.getByTestId('pair-USDT').count()).toBe(1);
  mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: join(artifacts, 'settings-screen.png'), fullPage: true });
  // The page's own CSP and code run without errors.
  expect(failures).toEqual([]);
});

it("serves React's production build, as users get it, not the development one vitest's NODE_ENV would pick", async () => {
  if (!service) throw new Error('setup failed');
  const index = await (await fetch(`${service.origin}/`)).text();
  const scripts = [...index.matchAll(/<script[^>]+src="([^"]+)"/g)].map((match) => match[1]);
  expect(scripts.length).toBeGreaterThan(0);
  const bundle = (await Promise.all(scripts.map(async (src) => (await fetch(`${service?.origin}${src}`)).text()))).join(
    '\n',
  );
  // Production React throws its errors by number; the development build carries these warnings in full.
  expect(bundle).toContain('Minified React error');
  expect(bundle).not.toContain('Each child in a list should have a unique "key" prop');
  expect(bundle).not.toContain('validateDOMNesting');
  expect(bundle).not.toContain('react-dom-client.development');
});

it("runs the app in the npm registry's Chromium, with its own libraries, where the machine has no Chromium", async () => {
  if (!service) throw new Error('setup failed');
  const fallback = await launchBrowser({ systemPath: join(root, 'no-such-chromium'), bundledLibraries: true });
  try {
    const page = await fallback.newPage();
    await page.goto(`${service.origin}/settings`);
    await expect.poll(() => page.getByTestId('network').textContent()).toBe('devnet');
    expect(await page.getByTestId('chain-id').textContent()).toBe('31337');
  } finally {
    await fallback.close();
  }
});
