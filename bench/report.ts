import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname } from 'node:path';
import { type Benchmark, meetsTarget, type Row, type Target } from './benchmark';

export interface BenchResult {
  benchmark: Benchmark['id'];
  rows: Row[];
  /** Set when the benchmark crashed; its rows are then empty. */
  error?: string;
  durationMs: number;
}

export function formatTarget(target: Target | undefined): string {
  return target ? `${target.op} ${formatValue(target.value)}` : '-';
}

/** Whole numbers stay whole; fractions get fewer decimals the larger they are. */
export function formatValue(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Number.isInteger(value)) return String(value);
  const magnitude = Math.abs(value);
  return value.toFixed(magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : 2);
}

function metText(row: Row): string {
  if (!row.target) return '-';
  return meetsTarget(row.value, row.target) ? 'yes' : 'NO';
}

/** A plain aligned table: names left-aligned, numbers right-aligned. */
export function formatTable(results: readonly BenchResult[]): string {
  const header = ['benchmark', 'value', 'unit', 'target', 'met'];
  const lines: string[][] = [];
  for (const result of results) {
    if (result.error !== undefined) lines.push([`${result.benchmark}: CRASHED`, '-', '-', '-', '-']);
    for (const row of result.rows) {
      lines.push([row.name, formatValue(row.value), row.unit, formatTarget(row.target), metText(row)]);
    }
  }
  const widths = header.map((title, i) => Math.max(title.length, ...lines.map((line) => (line[i] ?? '').length)));
  const rightAligned = new Set([1, 3]);
  const render = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (rightAligned.has(i) ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return [render(header), rule, ...lines.map(render)].join('\n');
}

/** Writes the run as JSON (the folder is ignored by git: results belong to the machine that measured them). */
export function writeResults(file: string, startedAt: Date, results: readonly BenchResult[]): void {
  mkdirSync(dirname(file), { recursive: true });
  const document = {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    machine: {
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? 'unknown',
    },
    results: results.map((result) => ({
      benchmark: result.benchmark,
      durationMs: Math.round(result.durationMs),
      ...(result.error !== undefined ? { error: result.error } : {}),
      rows: result.rows.map((row) => ({
        name: row.name,
        value: row.value,
        unit: row.unit,
        target: row.target ?? null,
        met: row.target ? meetsTarget(row.value, row.target) : null,
      })),
    })),
  };
  writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`);
}
