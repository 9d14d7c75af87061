import { createPublicClient, custom, type PublicClient, parseEther } from 'viem';
import { startDevnet } from '../../src-main/chain/devnet/startDevnet';
import { devnetChain } from '../../src-main/chain/networks';
import { routerDriver } from './routerDriver';
import { createTokenPool } from './tokenPool';

/**
 * Gas of each router path on a fresh devnet, in a fixed sequence so the figures are the same on every run: the
 * source of the checked-in gas snapshot and of the gas rows of `npm run bench`. "first" is a wallet's first trade
 * (binding its referrer and writing its first balances); the others are steady-state trades, no tick crossed.
 */
export async function measureRouterGas(): Promise<Record<string, number>> {
  const devnet = await startDevnet();
  const client = createPublicClient({ chain: devnetChain, transport: custom(devnet.provider) }) as PublicClient;
  const d = routerDriver(devnet, client);
  const bnb = await createTokenPool(devnet, client, devnet.contracts.wbnb);
  const usdt = await createTokenPool(devnet, client, devnet.contracts.usdt, { pairLiquidity: parseEther('60000') });
  const trader = 5;
  const referrer = d.account(6).address;
  const small = parseEther('0.01');
  const gas = async (run: Promise<{ result: string; hash?: `0x${string}` }>) => {
    const { result, hash } = await run;
    if (result !== 'ok') throw new Error(`a measured trade failed: ${result}`);
    return Number(await d.gasUsed(hash));
  };

  const figures: Record<string, number> = {};
  figures['buyExactIn BNB, first trade with a referrer'] = await gas(
    d.trade(trader, 'buyExactIn', d.params(bnb, small, 0n, referrer), small),
  );
  figures['buyExactIn BNB, referrer'] = await gas(
    d.trade(trader, 'buyExactIn', d.params(bnb, small, 0n, referrer), small),
  );
  figures['buyExactIn BNB, no referrer'] = await gas(d.trade(trader, 'buyExactIn', d.params(bnb, small, 0n), small));
  figures['buyExactOut BNB'] = await gas(
    d.trade(trader, 'buyExactOut', d.params(bnb, parseEther('1000'), small), small),
  );
  await d.allowRouter(trader, bnb.token);
  figures['sellExactIn BNB, first sale'] = await gas(
    d.trade(trader, 'sellExactIn', d.params(bnb, parseEther('1000'), 0n)),
  );
  figures['sellExactIn BNB'] = await gas(d.trade(trader, 'sellExactIn', d.params(bnb, parseEther('1000'), 0n)));
  figures['sellExactOut BNB'] = await gas(
    d.trade(trader, 'sellExactOut', d.params(bnb, parseEther('0.0001'), parseEther('1000000'))),
  );
  await d.allowRouter(trader, devnet.contracts.usdt);
  await d.trade(trader, 'buyExactIn', d.params(usdt, parseEther('10'), 0n, referrer));
  figures['buyExactIn USDT, referrer'] = await gas(
    d.trade(trader, 'buyExactIn', d.params(usdt, parseEther('10'), 0n, referrer)),
  );
  await d.allowRouter(trader, usdt.token);
  await d.trade(trader, 'sellExactIn', d.params(usdt, parseEther('1000'), 0n, referrer));
  figures['sellExactIn USDT, referrer'] = await gas(
    d.trade(trader, 'sellExactIn', d.params(usdt, parseEther('1000'), 0n, referrer)),
  );
  return figures;
}
