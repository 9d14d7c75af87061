import { measureRouterGas } from '../test/support/routerGas';
import type { Benchmark } from './benchmark';

/** Issue 3's target: a buy or a sell with no tick crossed under 180k gas (steady state, not a wallet's first). */
const TRADE_TARGET = { op: '<', value: 180_000 } as const;

export const routerGas: Benchmark = {
  id: 'router-gas',
  async run() {
    const figures = await measureRouterGas();
    return Object.entries(figures).map(([name, value]) => ({
      name: `gas: ${name}`,
      value,
      unit: 'gas',
      ...(name.includes('first') ? {} : { target: TRADE_TARGET }),
    }));
  },
};
