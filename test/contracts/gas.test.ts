import { expect, it } from 'vitest';
import { measureLaunchGas } from '../support/launchGas';
import { measureRouterGas } from '../support/routerGas';

// A change in gas shows up here in review; update with `npx vitest run test/contracts/gas.test.ts -u` when intended.
it('spends the recorded gas on every router and launch path', async () => {
  const figures = { ...(await measureRouterGas()), ...(await measureLaunchGas()) };
  await expect(`${JSON.stringify(figures, null, 2)}\n`).toMatchFileSnapshot('../__snapshots__/gas.json');
});
