import { measureLaunchGas } from '../test/support/launchGas';
import { measureRouterGas } from '../test/support/routerGas';
import type { Benchmark, Target } from './benchmark';

/** Issue 3's targets (a flat launch's raised to 6.5M by issue 27's 32 observations): trades with no tick crossed, a flat launch, and a launch with 4 ranges and a 10-way first buy. */
function targetFor(name: string): Target | undefined {
  if (name.startsWith('launch flat')) return { op: '<', value: 6_500_000 };
  if (name.startsWith('launch 4 ranges, first buy')) return { op: '<', value: 10_000_000 };
  if (name.startsWith('launch') || name.includes('first')) return undefined;
  return { op: '<', value: 180_000 };
}

export const contractGas: Benchmark = {
  id: 'contract-gas',
  async run() {
    const figures = { ...(await measureRouterGas()), ...(await measureLaunchGas()) };
    return Object.entries(figures).map(([name, value]) => {
      const target = targetFor(name);
      return { name: `gas: ${name}`, value, unit: 'gas', ...(target ? { target } : {}) };
    });
  },
};
