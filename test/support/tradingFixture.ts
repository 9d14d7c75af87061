import { type Address, createPublicClient, http, type PublicClient, parseEther } from 'viem';
import { testAccounts } from '../../src-main/chain/devnet/testAccounts';
import { devnetChain } from '../../src-main/chain/networks';
import type { ServiceOptions } from '../../src-main/startService';
import { launcher } from './launcher';
import { type RouterDriver, routerDriver } from './routerDriver';
import { startTestService, type TestService } from './startTestService';
import type { TokenPool } from './tokenPool';

export interface LaunchedToken {
  token: Address;
  pool: Address;
  creator: Address;
  pair: Address;
}

/** The test account that bought into the fixture's pools. */
export const FIXTURE_TRADER = 4;

const asPool = (t: LaunchedToken): TokenPool => ({ token: t.token, pair: t.pair, pool: t.pool });

export interface TradingFixture {
  driver: RouterDriver;
  service: TestService;
  /** Reads the devnet through the service's /rpc. */
  client: PublicClient;
  contracts: Record<string, Address>;
  /** A token launched against BNB and one against USDT, each with a first buy so both sides have liquidity. */
  bnbToken: LaunchedToken;
  usdtToken: LaunchedToken;
}

/** A running service on a fresh devnet with two launched tokens, everything sent through its /rpc. */
export async function startTradingFixture(options: Partial<ServiceOptions> = {}): Promise<TradingFixture> {
  const service = await startTestService(undefined, options);
  const transport = http(`${service.origin}/rpc`);
  const client = createPublicClient({ chain: devnetChain, transport }) as PublicClient;
  const settings = (await (await fetch(`${service.url}/settings`)).json()) as { contracts: Record<string, Address> };
  const { factory, wbnb, usdt } = settings.contracts;
  if (!factory || !wbnb || !usdt) throw new Error('settings lack the contracts');
  const l = launcher({ accounts: testAccounts(), contracts: { factory, wbnb }, transport }, client);
  const launch = async (pair: Address, creator: number, seed: string): Promise<LaunchedToken> => {
    const launched = await l.launch({ pair, creator, saltSeed: seed, openingTick: pair === wbnb ? -207200 : -150000 });
    if (launched.result !== 'ok' || !launched.pool) throw new Error(`fixture launch failed: ${launched.result}`);
    return { token: launched.token, pool: launched.pool, creator: launched.creator.address, pair };
  };
  const bnbToken = await launch(wbnb, 2, 'fixture-bnb');
  const usdtToken = await launch(usdt, 3, 'fixture-usdt');
  // A trader buys into both, so both sides of each pool have liquidity to quote against.
  const { router, quoter, permit2 } = settings.contracts;
  if (!router || !quoter || !permit2) throw new Error('settings lack the router');
  const d = routerDriver({ accounts: testAccounts(), contracts: { router, quoter, permit2 }, transport }, client);
  const bought = await d.trade(
    FIXTURE_TRADER,
    'buyExactIn',
    d.params(asPool(bnbToken), parseEther('2'), 0n),
    parseEther('2'),
  );
  await d.allowRouter(FIXTURE_TRADER, usdt);
  const boughtUsdt = await d.trade(FIXTURE_TRADER, 'buyExactIn', d.params(asPool(usdtToken), parseEther('1000'), 0n));
  if (bought.result !== 'ok' || boughtUsdt.result !== 'ok') throw new Error('fixture buys failed');
  return { service, client, contracts: settings.contracts, bnbToken, usdtToken, driver: d };
}
