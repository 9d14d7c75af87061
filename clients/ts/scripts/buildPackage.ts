/**
 * Builds the client as a package of its own, into clients/ts/dist: one ES module (dist/index.js) and its type
 * declarations (dist/*.d.ts). The review's decoder and checks it uses (src-shared, part of this repository and of no
 * package) are bundled into the module; the packages stay imports, resolved where the client is installed: openapi-fetch
 * and zod as its dependencies, viem as a peer. The declarations are the client's own files only: none of them names a
 * type of src-shared, and the build fails if one does. `npm pack` runs it (prepack); the ABIs it bundles are compiled by
 * `npm run contracts` at the repository's root.
 *
 * Run: `npm run build` in clients/ts.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { build } from 'esbuild';

const packageDir = resolve(import.meta.dirname, '..');
const root = resolve(packageDir, '../..');
const dist = join(packageDir, 'dist');

if (!existsSync(join(root, 'src-shared/generated/abis.ts'))) {
  throw new Error('src-shared/generated/abis.ts is missing: run `npm run contracts` at the repository root first');
}
rmSync(dist, { recursive: true, force: true });

await build({
  entryPoints: [join(packageDir, 'src/index.ts')],
  outfile: join(dist, 'index.js'),
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  // Every package is the installer's to resolve; only this repository's own files go into the bundle.
  packages: 'external',
  sourcemap: true,
  legalComments: 'none',
  logLevel: 'warning',
});

// Declarations: tsc writes one per source file under their common root (the repository), from which the client's
// own are taken; the schema's is a declaration file already, copied as it is.
const typesDir = join(dist, 'types');
const tsc = join(root, 'node_modules/typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', join(packageDir, 'tsconfig.build.json')], { stdio: 'inherit', cwd: root });
const own = join(typesDir, 'clients/ts/src');
for (const entry of readdirSync(own)) renameSync(join(own, entry), join(dist, entry));
rmSync(typesDir, { recursive: true, force: true });
cpSync(join(packageDir, 'src/schema.d.ts'), join(dist, 'schema.d.ts'));
// An ES module package's relative imports name their files, extension included, for Node's resolution (NodeNext) as
// for bundlers: `./sendBuild` becomes `./sendBuild.js`, which TypeScript reads as sendBuild.d.ts.
for (const file of declarations(dist)) {
  const text = readFileSync(file, 'utf8');
  writeFileSync(
    file,
    text.replace(
      /((?:from|import)\s*\(?\s*['"])(\.{1,2}\/[^'"]+?)(['"])/g,
      (_, head: string, spec: string, tail: string) =>
        /\.(js|d\.ts)$/.test(spec) ? `${head}${spec}${tail}` : `${head}${spec}.js${tail}`,
    ),
  );
}

const leaks = declarations(dist).filter((file) =>
  /from ['"](\.\.\/)+(src-shared|src-main)\//.test(readFileSync(file, 'utf8')),
);
if (leaks.length > 0) {
  throw new Error(
    `declarations name files outside the package: ${leaks.map((file) => relative(dist, file)).join(', ')}`,
  );
}
console.log(`built ${relative(root, dist)}: index.js and ${declarations(dist).length} declaration files`);

function declarations(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return declarations(path);
    return entry.name.endsWith('.d.ts') ? [path] : [];
  });
}
