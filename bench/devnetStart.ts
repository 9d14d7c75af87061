import { performance } from 'node:perf_hooks';
import { startDevnet } from '../src-main/chain/devnet/startDevnet';
import type { Benchmark } from './benchmark';
import { median } from './stats';

const RUNS = 5;

/** In-process `startDevnet()` (EVM creation and contract deployment, no journal): the chain's share of a cold start. */
export const devnetStart: Benchmark = {
  id: 'devnet-start',
  async run() {
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      await startDevnet();
      times.push(performance.now() - started);
    }
    return [
      {
        name: `startDevnet() in-process, median of ${RUNS}`,
        value: median(times),
        unit: 'ms',
        target: { op: '<', value: 2000 },
      },
    ];
  },
};
