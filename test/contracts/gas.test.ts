import { expect, it } from 'vitest';
import { measureRouterGas } from '../support/routerGas';

// A change in gas shows up here in review; update with `npx vitest run test/contracts/gas.test.ts -u` when intended.
it('spends the recorded gas on every router path', async () => {
  const figures = await measureRouterGas();
  await expect(`${JSON.stringify(figures, null, 2)}\n`).toMatchFileSnapshot('../__snapshots__/gas.json');
});
