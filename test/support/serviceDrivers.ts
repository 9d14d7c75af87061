import { type Address, http } from 'viem';
import { testAccounts } from '../../src-main/chain/devnet/testAccounts';
import type { RunningService } from '../../src-main/startService';
import { type ApiClient, apiClient } from './apiClient';
import { launcher } from './launcher';
import { type RouterDriver, routerDriver } from './routerDriver';

export interface ServiceDrivers {
  api: ApiClient;
  contracts: Record<string, Address>;
  launcher: ReturnType<typeof launcher>;
  driver: RouterDriver;
}

/** The API client, and the factory and router drivers, all sending through a running service's /rpc like a wallet. */
export async function serviceDrivers(service: { url: string; origin: string }): Promise<ServiceDrivers> {
  const api = apiClient(service);
  const transport = http(`${service.origin}/rpc`);
  const contracts = (await api.get('/settings')).body.contracts as Record<string, Address>;
  const { factory, wbnb, router, quoter, permit2 } = contracts;
  if (!factory || !wbnb || !router || !quoter || !permit2) throw new Error('settings lack the contracts');
  const accounts = testAccounts();
  return {
    api,
    contracts,
    launcher: launcher({ accounts, contracts: { factory, wbnb }, transport }, api.client),
    driver: routerDriver({ accounts, contracts: { router, quoter, permit2 }, transport }, api.client),
  };
}

/**
 * Launches through POST /build/launch at an opening cap of 10 in the pair (`body` adds or overrides the fields), signed
 * by test account `account`, and waits for the index to have it; the token's address.
 */
export async function launchThroughApi(
  service: Pick<RunningService, 'indexer'>,
  drivers: ServiceDrivers,
  account: number,
  body: Record<string, unknown>,
): Promise<Address> {
  const wallet = testAccounts()[account]?.address as Address;
  const built = await drivers.api.post('/build/launch', { wallet, marketCapPair: '10', ...body });
  if (built.status !== 200) throw new Error(`the launch was not built: ${JSON.stringify(built.body)}`);
  await service.indexer.waitFor((await drivers.api.signAndSend(account, built.body.tx)).blockNumber);
  return built.body.token as Address;
}
