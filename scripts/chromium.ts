/**
 * The Chromium the browser tests (and the icon renderer) drive through playwright-core. Playwright's own browsers
 * cannot be downloaded on our machines, so: `CHROMIUM_PATH` when set (`bundled` for the npm package's one below),
 * else Debian's (`/usr/bin/chromium`, package `chromium`), else the Chromium that `@sparticuz/chromium` carries inside
 * its npm package, unpacked to the temp folder on first use (about 1.6 s). That one needs NSS and expat; where the
 * machine lacks them (no Debian Chromium pulled them in), the package's own copies are unpacked beside it and put on
 * the browser's library path.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';

export const SYSTEM_CHROMIUM = '/usr/bin/chromium';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

export interface ChromiumChoice {
  executablePath: string;
  /** Where it came from, for a failure's message. */
  source: 'CHROMIUM_PATH' | 'system' | '@sparticuz/chromium';
  /** Extra environment for the browser process (the bundled libraries' path), when it needs any. */
  env?: Record<string, string>;
}

export interface ChromiumLookup {
  /** Debian's Chromium, looked for first; tests point it elsewhere to take the fallback. */
  systemPath?: string;
  /** Use the npm package's own NSS and expat even when the machine has them (a test of that path). */
  bundledLibraries?: boolean;
}

/** The shared libraries `binary` needs that the machine's loader cannot find (`ldd`'s "not found" lines). */
function missingLibraries(binary: string): string[] {
  try {
    const out = execFileSync('ldd', [binary], { encoding: 'utf8' });
    return out
      .split('\n')
      .filter((line) => line.includes('not found'))
      .map((line) => line.trim().split(/\s/)[0] ?? line);
  } catch {
    return [];
  }
}

/** The npm package's Chromium, unpacked once per machine into the temp folder, with its libraries where needed. */
async function npmChromium(bundledLibraries: boolean): Promise<ChromiumChoice> {
  let packageDir: string;
  try {
    // build/index.js is the package's one export; bin/ sits beside build/.
    packageDir = dirname(dirname(createRequire(import.meta.url).resolve('@sparticuz/chromium')));
  } catch {
    throw new Error(
      `No Chromium found: ${SYSTEM_CHROMIUM} is missing and @sparticuz/chromium is not installed. ` +
        "Install Debian's chromium (apt-get install chromium), set CHROMIUM_PATH, or run npm ci.",
    );
  }
  const { default: Chromium, inflate } = await import('@sparticuz/chromium');
  const executablePath = await Chromium.executablePath();
  const fonts = join(dirname(executablePath), 'fonts');
  const env: Record<string, string> = { FONTCONFIG_PATH: fonts };
  if (bundledLibraries || missingLibraries(executablePath).length > 0) {
    const libraries = join(await inflate(join(packageDir, 'bin', 'al2023.tar.br')), 'lib');
    env.LD_LIBRARY_PATH = [libraries, process.env.LD_LIBRARY_PATH].filter(Boolean).join(':');
    const still = missingLibraries(executablePath).filter((name) => !existsSync(join(libraries, name)));
    if (still.length > 0) {
      throw new Error(
        `The Chromium of @sparticuz/chromium needs ${still.join(', ')}, which this machine lacks: install Debian's ` +
          'chromium (apt-get install chromium), which brings them, or set CHROMIUM_PATH to another Chromium.',
      );
    }
  }
  return { executablePath, source: '@sparticuz/chromium', env };
}

/** Which Chromium to drive: CHROMIUM_PATH, then Debian's, then the one from the npm registry. */
export async function findChromium(lookup: ChromiumLookup = {}): Promise<ChromiumChoice> {
  const fromEnv = process.env.CHROMIUM_PATH;
  // `bundled`: the npm package's Chromium even where Debian's is installed (CI runs the browser tests on it once).
  if (fromEnv === 'bundled' && lookup.systemPath === undefined) return npmChromium(lookup.bundledLibraries ?? false);
  if (fromEnv && lookup.systemPath === undefined) return { executablePath: fromEnv, source: 'CHROMIUM_PATH' };
  const system = lookup.systemPath ?? SYSTEM_CHROMIUM;
  if (existsSync(system)) return { executablePath: system, source: 'system' };
  return npmChromium(lookup.bundledLibraries ?? false);
}

/** Launches headless Chromium through playwright-core, found as `findChromium` says. */
export async function launchChromium(lookup: ChromiumLookup = {}): Promise<Browser> {
  const choice = await findChromium(lookup);
  try {
    return await chromium.launch({
      executablePath: choice.executablePath,
      args: ARGS,
      ...(choice.env ? { env: { ...process.env, ...choice.env } as Record<string, string> } : {}),
    });
  } catch (error) {
    throw new Error(
      `Chromium (${choice.source}, ${choice.executablePath}) did not start: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
}
