import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServiceAddresses } from '../../src-main/chain/connectChain';

/**
 * A deployments folder whose testnet.json records a devnet's contracts and exchange (from block 0): a service started
 * on "testnet" with it reads that devnet only through the RPC URL it is given, as it would BSC's testnet.
 */
export function testnetDeployments(addresses: ServiceAddresses): string {
  const { config, factory, router, referrals, ...exchange } = addresses;
  const folder = mkdtempSync(join(tmpdir(), 'companion-deployments-'));
  writeFileSync(
    join(folder, 'testnet.json'),
    JSON.stringify({ config, factory, router, referrals, fromBlock: 0, exchange }),
  );
  return folder;
}
