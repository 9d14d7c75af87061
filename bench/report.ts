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

function machine() {
  return {
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
  };
}

/** The first line of a crash, for a table cell; the JSON keeps the whole stack. */
function crashLine(error: string): string {
  return error.split('\n', 1)[0] ?? error;
}

/**
 * Writes the run as JSON, for tools: every row with its target and whether it was met, and a crashed benchmark as a
 * row named "crashed: ..." with a null value (met false) next to its full `error`. Only the Markdown report is
 * committed; the JSON stays on the machine that measured it.
 */
export function writeResults(file: string, startedAt: Date, results: readonly BenchResult[]): void {
  mkdirSync(dirname(file), { recursive: true });
  const document = {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    machine: machine(),
    results: results.map((result) => ({
      benchmark: result.benchmark,
      durationMs: Math.round(result.durationMs),
      ...(result.error !== undefined ? { error: result.error } : {}),
      rows: [
        ...(result.error !== undefined
          ? [{ name: `crashed: ${crashLine(result.error)}`, value: null, unit: '-', target: null, met: false }]
          : []),
        ...result.rows.map((row) => ({
          name: row.name,
          value: row.value,
          unit: row.unit,
          target: row.target ?? null,
          met: row.target ? meetsTarget(row.value, row.target) : null,
        })),
      ],
    })),
  };
  writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`);
}

/** A table cell: pipes and line breaks would end the cell or the row. */
function cell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll(/\s*\n\s*/g, ' ');
}

/**
 * The run as a Markdown report (bench/results/latest.md, linked from the README): when, on what, and every row of
 * every benchmark with its target and whether it was met; a crashed benchmark is a row that says so.
 */
export function formatMarkdown(startedAt: Date, results: readonly BenchResult[], filters: readonly string[]): string {
  const m = machine();
  const missed = results.flatMap((r) => r.rows.filter((row) => row.target && !meetsTarget(row.value, row.target)));
  const crashed = results.filter((r) => r.error !== undefined);
  const lines = [
    '# Benchmark results',
    '',
    `Written by \`npm run bench${filters.length > 0 ? ` -- ${filters.join(' ')}` : ''}\` (bench/run.ts); do not edit by hand.`,
    '',
    `- Date: ${startedAt.toISOString()}`,
    `- Machine: ${m.cpus} cores (${m.cpuModel}), ${m.platform}`,
    `- Node: ${m.node}`,
    `- Benchmarks: ${filters.length > 0 ? `only ${results.map((r) => r.benchmark).join(', ')}` : 'all'}`,
    `- Targets missed: ${missed.length}; benchmarks crashed: ${crashed.length}`,
    '',
    '| benchmark | figure | value | unit | target | met |',
    '|---|---|--:|---|--:|---|',
  ];
  for (const result of results) {
    if (result.error !== undefined) {
      lines.push(`| ${result.benchmark} | **crashed**: ${cell(crashLine(result.error))} | - | - | - | NO |`);
    }
    for (const row of result.rows) {
      lines.push(
        `| ${result.benchmark} | ${cell(row.name)} | ${formatValue(row.value)} | ${cell(row.unit)} | ${cell(formatTarget(row.target))} | ${metText(row)} |`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

export function writeMarkdown(
  file: string,
  startedAt: Date,
  results: readonly BenchResult[],
  filters: readonly string[],
): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, formatMarkdown(startedAt, results, filters));
}
