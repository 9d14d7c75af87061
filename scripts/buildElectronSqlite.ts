/**
 * `npm run native:electron`: compiles better-sqlite3's addon for the Electron in node_modules, into
 * out/native/electron-<version>-<platform>-<arch>/ (the path src-main/store/sqliteNativeBinding.ts loads it from).
 * better-sqlite3 is not ABI-stable and Electron's ABI is not Node's: it is compiled from a copy of its sources, so
 * node_modules keeps Node's build for the tests and the headless server. node-gyp downloads Electron's headers from
 * electronjs.org; python3, make and a C++20 compiler do the rest (2-3 minutes on two cores).
 *
 * `-- --arch arm64` builds for another architecture of the same platform; `-- --force` builds again.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { electronSqliteAddon } from '../src-main/store/sqliteNativeBinding';

const require = createRequire(import.meta.url);

/** What to compile better-sqlite3's addon for: Electron's headers in the app, Node's own to check the steps here. */
export interface AddonTarget {
  runtime: 'electron' | 'node';
  version: string;
  arch: string;
  /** node-gyp's --dist-url (where the runtime's headers are downloaded from) or --nodedir (headers already here). */
  headers: { distUrl: string } | { nodedir: string };
}

const ELECTRON_HEADERS = 'https://electronjs.org/headers';

/** The Electron version in node_modules: the one `npm start`, `npm run dev` and the packages run. */
export function electronVersion(root: string): string {
  return (JSON.parse(readFileSync(join(root, 'node_modules/electron/package.json'), 'utf8')) as { version: string })
    .version;
}

/** npm's own node-gyp when run by an npm script, else the one in node_modules (@electron/rebuild brings it). */
function nodeGyp(): string {
  return process.env.npm_config_node_gyp ?? require.resolve('node-gyp/bin/node-gyp.js');
}

/** node-gyp options that choose the headers compiled against. */
const HEADER_OPTIONS = ['nodedir', 'target', 'runtime', 'disturl', 'dist_url', 'arch', 'target_arch'];

/**
 * The environment without npm config that would pick other headers than the command line's: node-gyp reads
 * `npm_config_<option>` too, and an npm configured with `nodedir` (Debian's npm sets /usr) would quietly compile
 * against Node's headers. Proxy and certificate settings stay, for the download of Electron's headers.
 */
export function envForNodeGyp(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(env).filter(([key]) => {
      const option = /^npm_(?:config|package_config_node_gyp)_(.+)$/i.exec(key)?.[1]?.toLowerCase();
      return option === undefined || !HEADER_OPTIONS.includes(option);
    }),
  );
}

/**
 * True when plain Node (this one) loads the addon: an addon for Electron must not, since Electron's ABI
 * (NODE_MODULE_VERSION) is never Node's.
 */
function loadsInNode(addon: string): boolean {
  return spawnSync(process.execPath, ['-e', `require(${JSON.stringify(addon)})`], { stdio: 'ignore' }).status === 0;
}

/**
 * Compiles better-sqlite3's addon for `target` into `outFile`, in a scratch copy of its sources under `.cache/`.
 * Returns why it failed, or undefined when `outFile` was written.
 */
export function compileSqliteAddon(root: string, target: AddonTarget, outFile: string): string | undefined {
  const sources = dirname(require.resolve('better-sqlite3/package.json'));
  const work = join(root, '.cache/sqlite-addon', `${target.runtime}-${target.version}-${target.arch}`);
  rmSync(work, { recursive: true, force: true });
  // Everything but Node's build: binding.gyp, src/ and deps/ (SQLite's amalgamation) are what node-gyp compiles.
  cpSync(sources, work, { recursive: true, filter: (path) => basename(path) !== 'build' });
  try {
    return compileIn(work, target, outFile);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function compileIn(work: string, target: AddonTarget, outFile: string): string | undefined {
  const headers =
    'distUrl' in target.headers ? `--dist-url=${target.headers.distUrl}` : `--nodedir=${target.headers.nodedir}`;
  const { status, signal, error } = spawnSync(
    process.execPath,
    [
      nodeGyp(),
      'rebuild',
      '--release',
      `--directory=${work}`,
      `--runtime=${target.runtime}`,
      `--target=${target.version}`,
      `--arch=${target.arch}`,
      headers,
    ],
    { cwd: work, stdio: 'inherit', env: envForNodeGyp() },
  );
  if (error) return `node-gyp could not start: ${error.message}`;
  if (status !== 0) return `node-gyp failed (${signal ?? `exit ${status}`}); its output above says why`;
  const built = join(work, 'build/Release/better_sqlite3.node');
  if (target.runtime === 'electron' && loadsInNode(built)) {
    return "node-gyp compiled against Node's headers, not Electron's (a nodedir in npm's or node-gyp's config?)";
  }
  mkdirSync(dirname(outFile), { recursive: true });
  copyFileSync(built, outFile);
  return undefined;
}

/**
 * Makes sure the Electron build of better-sqlite3 exists for the Electron in node_modules, compiling it when missing.
 * Returns the addon's path, or why it could not be built.
 */
export function ensureElectronSqlite(
  root: string,
  { arch = process.arch, force = false }: { arch?: string; force?: boolean } = {},
): { addon: string } | { problem: string } {
  const version = electronVersion(root);
  const addon = join(root, electronSqliteAddon(version, process.platform, arch));
  if (existsSync(addon) && !force) return { addon };
  console.log(`Compiling better-sqlite3 for Electron ${version} (${process.platform}-${arch}) into ${addon}...`);
  const problem = compileSqliteAddon(
    root,
    { runtime: 'electron', version, arch, headers: { distUrl: ELECTRON_HEADERS } },
    addon,
  );
  return problem
    ? {
        problem: `better-sqlite3 could not be compiled for Electron ${version}: ${problem}. It needs Electron's headers from ${ELECTRON_HEADERS}, python3, make and a C++20 compiler.`,
      }
    : { addon };
}

if (import.meta.filename === process.argv[1]) {
  const { values } = parseArgs({ options: { arch: { type: 'string' }, force: { type: 'boolean' } } });
  const result = ensureElectronSqlite(process.cwd(), {
    ...(values.arch ? { arch: values.arch } : {}),
    force: values.force ?? false,
  });
  if ('problem' in result) {
    console.error(result.problem);
    process.exit(1);
  }
  console.log(`better-sqlite3 for Electron: ${result.addon}`);
}
