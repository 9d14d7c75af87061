import { type Address, createPublicClient, http, type PublicClient } from 'viem';
import { testAccounts } from '../../src-main/chain/devnet/testAccounts';
import { devnetChain } from '../../src-main/chain/networks';
import { launcher } from './launcher';
import { startTestService, type TestService } from './startTestService';

export interface LaunchedToken {
  token: Address;
  pool: Address;
  creator: Address;
  pair: Address;
}

export interface TradingFixture {
  service: TestService;
  /** Reads the devnet through the service's /rpc. */
  client: PublicClient;
  contracts: Record<string, Address>;
  /** A token launched against BNB and one against USDT, each with a first buy so both sides have liquidity. */
  bnbToken: LaunchedToken;
  usdtToken: LaunchedToken;
}

/** A running service on a fresh devnet with two launched tokens, everything sent through its /rpc. */
export async function startTradingFixture(): Promise<TradingFixture> {
  const service = await startTestService();
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
  return { service, client, contracts: settings.contracts, bnbToken, usdtToken };
}
