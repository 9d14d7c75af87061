import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const SPEC_PATH = join(import.meta.dirname, '../../spec/api-v1.md');
/** The team's shared copy, present beside the repository on our machines and in CI. */
export const SHARED_SPEC_PATH = join(import.meta.dirname, '../../../shared/spec/api-v1.md');

export function readSpec(): string {
  return readFileSync(SPEC_PATH, 'utf8');
}

export function sharedSpec(): string | undefined {
  return existsSync(SHARED_SPEC_PATH) ? readFileSync(SHARED_SPEC_PATH, 'utf8') : undefined;
}

/** Rows of the first Markdown table after the given heading. */
export function tableAfter(spec: string, heading: string): string[][] {
  const start = spec.indexOf(`\n${heading}\n`);
  if (start === -1) throw new Error(`no heading "${heading}" in the spec`);
  const lines = spec.slice(start).split('\n');
  const first = lines.findIndex((line) => line.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(first)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    );
  }
  // Drop the header and the |---| separator.
  return rows.slice(2);
}

export interface SpecError {
  code: string;
  status: number;
  retry: boolean;
  meaning: string;
}

export function specErrors(spec = readSpec()): SpecError[] {
  return tableAfter(spec, '## Errors').map(([code, status, retry, meaning]) => ({
    code: code ?? '',
    status: Number(status),
    retry: retry === 'yes',
    meaning: meaning ?? '',
  }));
}
