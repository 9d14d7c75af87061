import { readdirSync, readFileSync } from 'node:fs';
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

// The client is a package of its own: bots use it without the app. Its code reaches nothing of the service (src-main,
// hono) or the rest of the repository, and only the packages its package.json declares. Its tests may use node: and
// vitest besides.
test('the client imports only its own files and its declared packages', () => {
  const offending = sources(src).flatMap((file) => {
    const isTest = file.endsWith('.test.ts');
    return specifiers(readFileSync(file, 'utf8'))
      .filter((spec) => {
        if (spec.startsWith('.')) return relative(src, resolve(file, '..', spec)).startsWith('..');
        if (isTest && (spec.startsWith('node:') || spec === 'vitest' || spec === 'openapi-typescript')) return false;
        return !declared.has(packageOf(spec));
      })
      .map((spec) => `${relative(src, file)} imports ${spec}`);
  });
  expect(offending).toEqual([]);
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
