import { type Address, http } from 'viem';
import { testAccounts } from '../../src-main/chain/devnet/testAccounts';
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
