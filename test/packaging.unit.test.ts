/**
 * The desktop packages cannot be built here (electron-builder downloads Electron's zips), so this checks what can go
 * wrong in electron-builder.ts without building one: its globs are run, through electron-builder's own file matchers,
 * against the files the packaged app loads, and the icons it names are read.
 */
import { existsSync, readdirSync, readFileSync, type Stats, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import type { Configuration } from 'electron-builder';
import { describe, expect, it } from 'vitest';
import config, { MACRO, PACKAGE_ICON, WINDOW_ICON } from '../electron-builder';
import { electronSqliteAddon } from '../src-main/store/sqliteNativeBinding';

const root = join(import.meta.dirname, '..');
const require = createRequire(import.meta.url);

type Filter = (file: string, stat: Pick<Stats, 'isDirectory'>) => boolean;
interface Matcher {
  createFilter(): Filter;
}
/**
 * electron-builder's matchers, from its internals: an upgrade that changes them fails here, not in a user's package.
 * getMainFileMatchers adds its default exclusions to `files`; getNodeModuleFileMatcher applies `files`' exclusions to
 * node_modules, which electron-builder collects apart from the app's own files.
 */
const { getFileMatchers, getMainFileMatchers, getNodeModuleFileMatcher } = require(
  require.resolve('app-builder-lib/out/fileMatcher.js', { paths: [require.resolve('electron-builder')] }),
) as {
  getFileMatchers(config: Configuration, name: string, destination: string, options: object): Matcher[] | null;
  getMainFileMatchers(...args: unknown[]): Matcher[];
  getNodeModuleFileMatcher(...args: unknown[]): Matcher;
};

/** Here the architecture packaged is this machine's. */
const expand = (pattern: string) =>
  pattern.replaceAll(MACRO.platform, process.platform).replaceAll(MACRO.arch, process.arch);
const packager = {
  info: { config, projectDir: root, buildResourcesDir: 'build', isPrepackedAppAsar: false, debugLogger: {} },
};
const [packsAppFile] = getMainFileMatchers(root, root, expand, {}, packager, join(root, 'dist'), false).map((matcher) =>
  matcher.createFilter(),
);
const packsModuleFile = getNodeModuleFileMatcher(root, root, expand, {}, packager.info).createFilter();
const unpackMatchers = getFileMatchers(config, 'asarUnpack', root, {
  macroExpander: expand,
  customBuildOptions: {},
  globalOutDir: join(root, 'dist'),
  defaultSrc: root,
});
const unpacks = unpackMatchers?.[0]?.createFilter() ?? (() => false);

const aFile = { isDirectory: () => false };
const packed = (path: string) =>
  path.startsWith('node_modules/') ? packsModuleFile(join(root, path), aFile) : packsAppFile?.(join(root, path), aFile);

/** The package's folder, found as Node finds it: in node_modules beside `from` or in any folder above. */
function packageDir(name: string, from: string): string | undefined {
  for (let dir = from; dir.startsWith(root); dir = join(dir, '..')) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
  }
  return undefined;
}

/** Every package the app runs with: its dependencies and optional ones (those installed here), transitively. */
function productionPackages(): string[] {
  const seen = new Set<string>();
  const visit = (dir: string) => {
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      optionalDependencies?: Record<string, string>;
    };
    for (const name of Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies })) {
      const found = packageDir(name, dir);
      if (found && !seen.has(found)) {
        seen.add(found);
        visit(found);
      }
    }
  };
  visit(root);
  return [...seen];
}

/** The native addons (.node) inside a package, its own nested node_modules left to their packages. */
function addonsIn(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : addonsIn(path);
    return entry.name.endsWith('.node') ? [path] : [];
  });
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(file: string): { width: number; height: number } {
  const bytes = readFileSync(file);
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('electron-builder.ts', () => {
  it('names icons that exist: a 1024 PNG for the installers, the window icon inside the app', () => {
    for (const icon of [config.linux?.icon, config.mac?.icon, config.win?.icon]) expect(icon).toBe(PACKAGE_ICON);
    expect(pngSize(join(root, PACKAGE_ICON))).toEqual({ width: 1024, height: 1024 });
    expect(statSync(join(root, WINDOW_ICON)).isFile()).toBe(true);
    expect(readFileSync(join(root, 'src-main/windows/createMainWindow.ts'), 'utf8')).toContain(`'${WINDOW_ICON}'`);
  });

  it('packs what the app loads from its own folder, and keeps the sources and tests out', () => {
    for (const path of ['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html', WINDOW_ICON]) {
      expect(packed(path), path).toBe(true);
    }
    for (const path of [
      'src-main/index.ts',
      'test/packaging.unit.test.ts',
      'out/web/index.html',
      'electron-builder.ts',
    ]) {
      expect(packed(path), path).toBe(false);
    }
  });

  it("packs and unpacks this Electron's better-sqlite3 build, the one the app loads", () => {
    const electronVersion = (
      JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8')) as {
        version: string;
      }
    ).version;
    const addon = electronSqliteAddon(electronVersion, process.platform, process.arch);
    expect(packed(addon)).toBe(true);
    expect(unpacks(join(root, addon), aFile)).toBe(true);
    // Another Electron's build (left from before an upgrade) stays out.
    expect(packed(electronSqliteAddon('1.0.0', process.platform, process.arch))).toBe(false);
  });

  it("unpacks every native addon of the app's dependencies; only Node's better-sqlite3 is left out", () => {
    const addons = productionPackages()
      .flatMap(addonsIn)
      .map((file) => relative(root, file));
    // The walk found the addons the app loads: Node's better-sqlite3 (to leave out), node-hid's and EDR's.
    expect(addons).toContain('node_modules/better-sqlite3/build/Release/better_sqlite3.node');
    expect(addons.some((path) => path.startsWith('node_modules/node-hid/prebuilds/'))).toBe(true);
    expect(addons.some((path) => path.startsWith('node_modules/@nomicfoundation/edr-'))).toBe(true);

    const leftOut = addons.filter((path) => !packed(path));
    expect(leftOut.every((path) => path.startsWith('node_modules/better-sqlite3/build/'))).toBe(true);
    expect(leftOut).toContain('node_modules/better-sqlite3/build/Release/better_sqlite3.node');
    const packedButNotUnpacked = addons.filter((path) => packed(path) && !unpacks(join(root, path), aFile));
    expect(packedButNotUnpacked).toEqual([]);
  });

  it('never rebuilds node_modules in place (the tests and the headless server need Node’s build)', () => {
    expect(config.npmRebuild).toBe(false);
  });
});
