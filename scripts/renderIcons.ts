/**
 * Renders resources/icon.svg to the PNGs a desktop app needs (resources/icon-<size>.png, and icon.png at 512 for the
 * window), through Chromium so the edges are anti-aliased as a browser draws them. Run once after changing the SVG and
 * commit the outputs: `npx tsx scripts/renderIcons.ts`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchChromium } from './chromium';

const SIZES = [16, 32, 64, 128, 256, 512, 1024];
/** The size the Electron window (and Linux's taskbar) takes as resources/icon.png. */
const WINDOW_SIZE = 512;

const resources = join(import.meta.dirname, '..', 'resources');
const svg = readFileSync(join(resources, 'icon.svg'), 'utf8');

const browser = await launchChromium();
try {
  for (const size of SIZES) {
    const page = await browser.newPage({ viewport: { width: size, height: size }, deviceScaleFactor: 1 });
    const sized = svg.replace(/width="\d+" height="\d+"/, `width="${size}" height="${size}"`);
    await page.setContent(
      `<!doctype html><html><head><style>html,body{margin:0;background:transparent}svg{display:block}</style></head><body>${sized}</body></html>`,
    );
    const clip = { x: 0, y: 0, width: size, height: size };
    await page.screenshot({ path: join(resources, `icon-${size}.png`), omitBackground: true, clip });
    if (size === WINDOW_SIZE) await page.screenshot({ path: join(resources, 'icon.png'), omitBackground: true, clip });
    await page.close();
  }
} finally {
  await browser.close();
}
