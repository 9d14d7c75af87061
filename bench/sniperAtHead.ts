import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Address, Hex, PublicClient } from 'viem';
import type { Row } from './benchmark';
import { percentile } from './stats';

const ROOT = join(import.meta.dirname, '..');
/** Launches bought one a block, for the figure of event to broadcast, after a few that warm the sniper up. */
export const SNIPED = 20;
const SNIPED_WARM_UP = 3;
/** Launches sent at once, all meant for one block: the burst the sniper must keep up with. */
export const BURST = 30;
/** The test account the example sniper signs with (examples/botSetup.ts): no other sender may use it here. */
export const SNIPER_ACCOUNT = 12;

export interface SniperStage {
  /** The service's API root. */
  url: string;
  reads: PublicClient;
  /** Sends one planned launch; resolves with its hash once the node took it. */
  send(index: number): Promise<Hex>;
  /** The token each planned launch makes. */
  tokens: readonly Address[];
  nextBlock(): Promise<number>;
  sleep(ms: number): Promise<unknown>;
}

interface Sniper {
  child: ChildProcess;
  lines: string[];
  /** Resolves with the first line matching, or rejects after `timeoutMs`. */
  line(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
}

/** The example sniper (examples/sniper.ts) as a person runs it, against the service at `url`, buying without limit. */
function startSniper(url: string): Sniper {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join('examples', 'sniper.ts'), '--amount', '0.01', '--max-buys', 'unlimited'],
    {
      cwd: ROOT,
      env: { ...process.env, COMPANION_URL: url, BOT_KEY: '', COMPANION_API_KEY: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const lines: string[] = [];
  const waiters = new Set<() => void>();
  for (const stream of [child.stdout, child.stderr]) {
    let rest = '';
    stream?.setEncoding('utf8').on('data', (chunk: string) => {
      const parts = (rest + chunk).split('\n');
      rest = parts.pop() ?? '';
      lines.push(...parts);
      for (const waiter of [...waiters]) waiter();
    });
  }
  const line = (pattern: RegExp, timeoutMs = 30_000) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const look = () => {
        for (const text of lines) {
          const match = pattern.exec(text);
          if (match) {
            waiters.delete(look);
            clearTimeout(timer);
            resolve(match);
            return;
          }
        }
      };
      const timer = setTimeout(() => {
        waiters.delete(look);
        reject(new Error(`the sniper printed no line matching ${pattern}:\n${lines.slice(-20).join('\n')}`));
      }, timeoutMs);
      waiters.add(look);
      look();
    });
  return { child, lines, line };
}

/**
 * Issue 29's figures for the example sniper at BSC's cadence, on a stage the caller runs (750 ms blocks, 3
 * confirmations, background buys): first SNIPED launches one a block, each bought by the sniper as it hears it at the
 * head; what it prints for each buy says how long after hearing the launch it broadcast the signed buy. Then BURST
 * launches sent at once, for one block: for how many of them the sniper's buy lands in the block right after the
 * launch's. The stage's launches from `first` on are these SNIPED + BURST.
 */
export async function sniperFigures(stage: SniperStage, first: number): Promise<Row[]> {
  const sniper = startSniper(stage.url);
  try {
    await sniper.line(/^listening from block \d+/, 60_000);
    const sentAfter: number[] = [];
    for (let i = 0; i < SNIPED; i++) {
      await stage.nextBlock();
      await stage.sleep(100 + Math.random() * 300);
      const token = stage.tokens[first + i] as Address;
      await stage.send(first + i);
      const sent = await sniper.line(new RegExp(`^sent buy of \\S+ ${token} in tx 0x[0-9a-f]{64}, ([\\d.]+) ms after`));
      if (i >= SNIPED_WARM_UP) sentAfter.push(Number(sent[1]));
    }
    // The burst: sent just after a block is made, so all of it is in the node for the next one.
    await stage.nextBlock();
    await stage.sleep(50);
    const burst = Array.from({ length: BURST }, (_, k) => first + SNIPED + k);
    const launches = await Promise.all(burst.map((index) => stage.send(index)));
    let nextBlockBuys = 0;
    const lateBy: number[] = [];
    for (const [k, index] of burst.entries()) {
      const token = stage.tokens[index] as Address;
      const bought = await sniper.line(
        new RegExp(`^bought \\S+ ${token}: .* in tx (0x[0-9a-f]{64}) \\(block (\\d+)`),
        60_000,
      );
      const launched = await stage.reads.getTransactionReceipt({ hash: launches[k] as Hex });
      const late = Number(bought[2]) - Number(launched.blockNumber);
      lateBy.push(late);
      if (late === 1) nextBlockBuys++;
    }
    return [
      {
        name: `example sniper: head event heard -> signed buy broadcast, p50 of ${sentAfter.length}`,
        value: Math.round(percentile(sentAfter, 50) * 10) / 10,
        unit: 'ms',
        target: { op: '<=', value: 30 },
      },
      {
        name: 'example sniper: head event heard -> signed buy broadcast, p95',
        value: Math.round(percentile(sentAfter, 95) * 10) / 10,
        unit: 'ms',
      },
      {
        name: `example sniper, ${BURST} launches at once: buys landed in the block after their launch's`,
        value: Math.round((nextBlockBuys / BURST) * 1000) / 10,
        unit: '%',
        target: { op: '>=', value: 90 },
      },
      {
        name: `example sniper, ${BURST} launches at once: blocks from launch to buy, at most`,
        value: Math.max(...lateBy),
        unit: 'blocks',
      },
    ];
  } finally {
    sniper.child.kill('SIGTERM');
    await new Promise((resolve) => {
      if (sniper.child.exitCode !== null) resolve(undefined);
      else sniper.child.once('exit', resolve);
    });
  }
}
