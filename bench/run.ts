/**
 * `npm run bench [-- ID...]`: runs the benchmarks (all, or those whose id contains one of the arguments), prints a
 * table and writes bench/results/latest.json and the Markdown report bench/results/latest.md (committed; the README
 * links to it). A missed target is printed, not a failure: the exit code is non-zero only when a benchmark could not
 * run.
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Benchmark } from './benchmark';
import { botStream } from './botStream';
import { bscCadence } from './bscCadence';
import { confirmedToListedBench } from './confirmedToListed';
import { contractGas } from './contractGas';
import { devnetStart } from './devnetStart';
import { headEventsBench } from './headEvents';
import { indexerBench } from './indexerBench';
import { launchBench } from './launchBench';
import { loadMix } from './loadMix';
import { quoteVsBare } from './quoteVsBare';
import { quoteWork } from './quoteWork';
import { type BenchResult, formatTable, writeMarkdown, writeResults } from './report';
import { serveColdStart } from './serveColdStart';
import { tradingBench } from './tradingBench';

/** In run order: the child-process start-ups first, before this process has an EVM of its own competing for CPU. */
const BENCHMARKS: readonly Benchmark[] = [
  serveColdStart,
  devnetStart,
  loadMix,
  contractGas,
  tradingBench,
  launchBench,
  indexerBench,
  confirmedToListedBench,
  botStream,
  bscCadence,
  headEventsBench,
  // Beside quote-vs-bare: where its gap comes from.
  quoteWork,
  // Last: it takes both cores (the servers it compares and its load generator, each in processes of their own).
  quoteVsBare,
];

const RESULTS_FILE = join(import.meta.dirname, 'results', 'latest.json');
const REPORT_FILE = join(import.meta.dirname, 'results', 'latest.md');

const filters = process.argv.slice(2);
const selected = BENCHMARKS.filter((b) => filters.length === 0 || filters.some((f) => b.id.includes(f)));
if (selected.length === 0) {
  process.stderr.write(`no benchmark matches ${filters.join(' ')}; ids: ${BENCHMARKS.map((b) => b.id).join(', ')}\n`);
  process.exit(2);
}

/** The stack with its chain of causes: a wrapped chain or RPC failure names its real reason only in a cause. */
function describeCrash(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; e !== undefined && depth < 5; depth++) {
    parts.push(e instanceof Error ? (e.stack ?? e.message) : String(e));
    e = e instanceof Error ? e.cause : undefined;
  }
  return parts.join('\ncaused by: ');
}

const startedAt = new Date();
const results: BenchResult[] = [];
for (const benchmark of selected) {
  process.stderr.write(`running ${benchmark.id}...\n`);
  const started = performance.now();
  try {
    const rows = await benchmark.run();
    results.push({ benchmark: benchmark.id, rows, durationMs: performance.now() - started });
  } catch (error) {
    const message = describeCrash(error);
    process.stderr.write(`${benchmark.id} crashed: ${message}\n`);
    results.push({ benchmark: benchmark.id, rows: [], error: message, durationMs: performance.now() - started });
  }
}

process.stdout.write(`${formatTable(results)}\n`);
writeResults(RESULTS_FILE, startedAt, results);
writeMarkdown(REPORT_FILE, startedAt, results, filters);
process.stderr.write(`wrote ${RESULTS_FILE} and ${REPORT_FILE}\n`);
// Explicit exit: the in-process devnets have no close(), and whatever they hold must not keep the run alive.
process.exit(results.some((r) => r.error !== undefined) ? 1 : 0);
