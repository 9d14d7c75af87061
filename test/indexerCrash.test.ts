import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { type Address, parseEther } from 'viem';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { dumpIndex } from './support/indexDump';
import { type ServiceDrivers, serviceDrivers } from './support/serviceDrivers';
import { startTestService, type TestService } from './support/startTestService';

const ROOT = join(import.meta.dirname, '..');
/** The child, bundled like the headless entry: through a TypeScript loader each start would cost seconds. */
const CHILD = join(ROOT, 'out', 'test', 'indexerChild.mjs');
/** Blocks per eth_getLogs in the child: small, so a backfill is many batches and kills land inside it. */
const RANGE = 2;
/** Runs killed during the backfill, and the most batches a run may store before its kill. */
const KILLS = 6;
const MAX_BATCHES_PER_RUN = 8;

let service: TestService;
let s: ServiceDrivers;

beforeAll(async () => {
  buildSync({
    absWorkingDir: ROOT,
    entryPoints: ['test/support/indexerChild.ts'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outfile: CHILD,
    logLevel: 'warning',
  });
  service = await startTestService();
  s = await serviceDrivers(service);
  // A chain worth backfilling: launches, trades with referrers (so bindings), and empty blocks between them.
  const { wbnb } = s.contracts as Record<string, Address>;
  const mine = async (n: number) => {
    for (let i = 0; i < n; i++) await s.api.client.request({ method: 'evm_mine' } as never);
  };
  // A wallet is bound for life to the first referrer it names (the router refuses another), so each trader keeps
  // naming the creator it named first.
  const boundTo = new Map<number, Address>();
  for (let i = 0; i < 8; i++) {
    const launched = await s.launcher.launch({ creator: 2 + (i % 4), saltSeed: `crash-${i}`, name: `Crash ${i}` });
    if (launched.result !== 'ok' || !launched.pool) throw new Error(`launch failed: ${launched.result}`);
    const pool = { token: launched.token, pair: wbnb as Address, pool: launched.pool };
    for (let t = 0; t < 4; t++) {
      const trader = 8 + ((i * 4 + t) % 10);
      const referrer = boundTo.get(trader) ?? launched.creator.address;
      boundTo.set(trader, referrer);
      const bought = await s.driver.trade(
        trader,
        'buyExactIn',
        { ...s.driver.params(pool, parseEther('0.1'), 0n), referrer },
        parseEther('0.1'),
      );
      if (bought.result !== 'ok') throw new Error(`trade failed: ${bought.result}`);
      await mine(3);
    }
    await mine(10);
  }
});
afterAll(async () => {
  await service?.dispose();
});

/**
 * Runs the child indexer; `kill` decides, on each line it prints, whether to SIGKILL it there (a moment later, so
 * some kills land right after a batch is stored and some inside the next one).
 */
function runChild(db: string, kill: (line: string) => boolean, spreadMs = 4): Promise<'done' | 'killed'> {
  const options = {
    rpc: `${service.origin}/rpc`,
    db,
    chainId: service.chain.chainId,
    deployBlock: Number(service.chain.deployBlock),
    range: RANGE,
    addresses: {
      factory: service.chain.addresses.factory,
      router: service.chain.addresses.router,
      referrals: service.chain.addresses.referrals,
    },
  };
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, [CHILD, JSON.stringify(options)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let killed = false;
    let done = false;
    let stderr = '';
    const killNow = () => {
      if (!killed) {
        killed = true;
        child.kill('SIGKILL');
      }
    };
    child.stderr?.on('data', (chunk) => {
      stderr += String(chunk);
    });
    let pending = '';
    child.stdout?.on('data', (chunk) => {
      pending += String(chunk);
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (line === 'done') done = true;
        if (kill(line)) setTimeout(killNow, Math.random() * spreadMs);
      }
    });
    child.on('exit', (code) => {
      // A kill that lands after `done`, while the process exits, found the work finished.
      if (done) resolve('done');
      else if (killed) resolve('killed');
      else reject(new Error(`the indexer child failed (${code}): ${stderr}`));
    });
  });
}

it('ends with exactly the database of an uninterrupted run when killed at random points during a backfill', async () => {
  const reference = join(service.dataDir, 'reference.sqlite');
  let batches = 0;
  const counted = await runChild(reference, (line) => {
    if (line.startsWith('batch ')) batches++;
    return false;
  });
  expect(counted).toBe('done');
  const expected = dumpIndex(reference);
  expect(expected.launches).toHaveLength(8);
  expect(expected.trades).toHaveLength(32);
  expect((expected.bindings as unknown[]).length).toBeGreaterThan(0);
  // Enough batches that every kill below lands inside the backfill, whatever the machine's speed.
  expect(batches).toBeGreaterThan(KILLS * MAX_BATCHES_PER_RUN);

  // Each run is killed a few milliseconds after a random stored batch (counted, not timed, so a loaded machine
  // kills as often as an idle one): the kill may land in a read, between batches or inside a write. The first
  // run is killed at start-up, before its first batch.
  const crashed = join(service.dataDir, 'crashed.sqlite');
  let kills = 0;
  for (let run = 0; run < KILLS; run++) {
    const killAt = run === 0 ? 0 : 1 + Math.floor(Math.random() * MAX_BATCHES_PER_RUN);
    let seen = 0;
    const outcome = await runChild(crashed, (line) => {
      if (line === 'ready') return killAt === 0;
      return line.startsWith('batch ') && ++seen === killAt;
    });
    if (outcome === 'killed') kills++;
  }
  expect(kills).toBe(KILLS);
  // The last run is left to finish before the two databases are compared.
  expect(await runChild(crashed, () => false)).toBe('done');
  expect(dumpIndex(crashed)).toEqual(expected);
}, 240_000);
