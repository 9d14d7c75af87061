import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { expect, test } from 'vitest';

const renderer = resolve(import.meta.dirname, '..');
const main = resolve(renderer, '../src-main');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.(ts|tsx|js|jsx|mts|cts)$/.test(entry.name) ? [path] : [];
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

// Main's code and its types stay in main: the renderer reads the service through the generated OpenAPI types and
// main through the app-channel types in src-shared, so a change in main cannot silently reshape the UI.
test('no file under src-renderer imports from src-main', () => {
  const offending = sources(renderer).flatMap((file) =>
    specifiers(readFileSync(file, 'utf8'))
      .filter((spec) => spec.startsWith('.') && !relative(main, resolve(file, '..', spec)).startsWith('..'))
      .map((spec) => `${relative(renderer, file)} imports ${spec}`),
  );
  expect(offending).toEqual([]);
});

test('the scan sees a relative import of src-main', () => {
  const file = join(renderer, 'src/pages/Some.tsx');
  const [spec] = specifiers("import type { X } from '../../../src-main/services/x';");
  expect(relative(main, resolve(file, '..', spec as string)).startsWith('..')).toBe(false);
});
