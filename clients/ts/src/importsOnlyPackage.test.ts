import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { expect, test } from 'vitest';

const src = import.meta.dirname;
const manifest = JSON.parse(readFileSync(resolve(src, '../package.json'), 'utf8')) as {
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};
const declared = new Set([
  ...Object.keys(manifest.dependencies ?? {}),
  ...Object.keys(manifest.peerDependencies ?? {}),
]);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.(ts|tsx|js|mts|cts)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every module specifier of a file: static imports and re-exports, `import type`, dynamic import() and require(). */
function specifiers(text: string): string[] {
  const found = [
    ...text.matchAll(/\b(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g),
    ...text.matchAll(/\bimport\s*['"]([^'"]+)['"]/g),
    ...text.matchAll(/\b(?:import|require)\s*\(\s*['"]([^'"]+)['"]\s*\)/g),
  ];
  return found.map((match) => match[1] as string);
}

/** The package a bare specifier names: `viem/accounts` is viem, `@scope/name/x` is @scope/name. */
const packageOf = (spec: string) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');

/** The file a relative specifier names, as TypeScript resolves it. */
function fileOf(from: string, spec: string): string | undefined {
  const base = resolve(from, '..', spec);
  return [`${base}.ts`, `${base}.d.ts`, join(base, 'index.ts'), base].find((candidate) => existsSync(candidate));
}

/** Where the client's build may reach outside its own folder: the review's shared code, bundled into the package. */
const BUNDLED = resolve(src, '../../../src-shared');

// The client is a package of its own: bots use it without the app. Its code reaches nothing of the service (src-main,
// hono) or the rest of the repository but the review's shared decoder and checks (src-shared, which its build
// bundles into the package), and only the packages its package.json declares, from its files and the bundled ones
// alike. Its tests may use node: and vitest besides.
test('the client imports only its own files, the bundled shared code and its declared packages', () => {
  const offending: string[] = [];
  const visited = new Set<string>();
  const visit = (file: string) => {
    if (visited.has(file)) return;
    visited.add(file);
    const isTest = file.endsWith('.test.ts');
    for (const spec of specifiers(readFileSync(file, 'utf8'))) {
      if (spec.startsWith('.')) {
        const target = fileOf(file, spec);
        const inside = !relative(src, resolve(file, '..', spec)).startsWith('..');
        const bundled = !relative(BUNDLED, resolve(file, '..', spec)).startsWith('..');
        if (!target) offending.push(`${relative(src, file)} imports ${spec}, which is no file`);
        else if (!inside && !(bundled && !isTest)) offending.push(`${relative(src, file)} imports ${spec}`);
        else if (!target.endsWith('.d.ts')) visit(target);
        continue;
      }
      if (isTest && (spec.startsWith('node:') || spec === 'vitest' || spec === 'openapi-typescript')) continue;
      if (!declared.has(packageOf(spec))) offending.push(`${relative(src, file)} imports ${spec}`);
    }
  };
  for (const file of sources(src)) visit(file);
  expect(offending).toEqual([]);
  // The shared code it reaches is the review's: the decoder and checks, the schemas they read with, the ABIs, and
  // the formatting of dates the checks write ("in 30 days, 28 Dec 2026").
  const shared = [...visited].filter((file) => !relative(BUNDLED, file).startsWith('..'));
  expect(shared.map((file) => relative(BUNDLED, file).split('/')[0]).sort()).toEqual(
    expect.arrayContaining(['generated', 'inspect', 'schema']),
  );
  const outside = shared.filter((file) => !/^(inspect|schema|generated|format)\//.test(relative(BUNDLED, file)));
  expect(outside.map((file) => relative(BUNDLED, file))).toEqual([]);
});

// It resolves its packages from the repository's root node_modules: the versions it declares are the ones installed.
test("the client's declared dependencies are the root's pins", () => {
  const root = JSON.parse(readFileSync(resolve(src, '../../../package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  const pinned = { ...root.dependencies, ...root.devDependencies };
  const client = JSON.parse(readFileSync(resolve(src, '../package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
    peerDependencies: Record<string, string>;
  };
  for (const [name, version] of Object.entries({ ...client.dependencies, ...client.devDependencies })) {
    expect(version, name).toBe(pinned[name]);
  }
  const viemMajor = client.peerDependencies.viem?.match(/^\^(\d+)\./)?.[1];
  expect(pinned.viem?.split('.')[0]).toBe(viemMajor);
});

test('the scan sees what it must refuse', () => {
  const file = join(src, 'events/x.ts');
  // Written so that the scan of this very file does not find them.
  const from = 'from';
  const specs = specifiers(
    `import type { X } ${from} '../../../src-main/services/x';\nimport { Hono } ${from} 'hono';\nexport { y } ${from} './y';`,
  );
  expect(specs).toEqual(['../../../src-main/services/x', 'hono', './y']);
  expect(relative(src, resolve(file, '..', specs[0] as string)).startsWith('..')).toBe(true);
  expect(declared.has(packageOf('hono'))).toBe(false);
  expect(declared.has(packageOf('viem/accounts'))).toBe(true);
});
