/**
 * `npm run deploy -- --rpc URL [--fee-recipient ADDRESS]` with the deployer's key in DEPLOYER_PRIVATE_KEY: deploys the
 * service's contracts to BSC testnet (97) or mainnet (56), whichever the RPC serves, against the real PancakeSwap V3,
 * Permit2 and WBNB there, and writes deployments/<network>.json, which `npm run serve -- --network ...` reads.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type Address, createPublicClient, type Hex, http, isAddress } from 'viem';
import { NETWORKS } from '../src-main/chain/networks';
import { deployService } from './deployService';

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

let values: { rpc?: string; 'fee-recipient'?: string; force?: boolean };
try {
  values = parseArgs({
    options: { rpc: { type: 'string' }, 'fee-recipient': { type: 'string' }, force: { type: 'boolean' } },
    strict: true,
  }).values;
} catch (error) {
  fail(`${(error as Error).message}\nusage: npm run deploy -- --rpc URL [--fee-recipient ADDRESS] [--force]`);
}
const rpcUrl = values.rpc ?? fail('--rpc URL is needed: the BSC testnet or mainnet RPC to deploy through');
const privateKey = process.env.DEPLOYER_PRIVATE_KEY;
if (!privateKey || !/^0x[0-9a-fA-F]{64}$/.test(privateKey)) {
  fail('DEPLOYER_PRIVATE_KEY must hold the deployer key as 0x followed by 64 hex digits');
}
const feeRecipient = values['fee-recipient'];
if (feeRecipient !== undefined && !isAddress(feeRecipient)) fail(`--fee-recipient ${feeRecipient} is not an address`);

const chainId = await createPublicClient({ transport: http(rpcUrl) })
  .getChainId()
  .catch((error: Error) => fail(`the RPC at ${rpcUrl} did not answer: ${error.message.split('\n')[0]}`));
const network = Object.values(NETWORKS).find((n) => n.chain.id === chainId && n.exchange);
if (!network?.exchange) fail(`the RPC serves chain ${chainId}; deploy targets BSC testnet (97) or mainnet (56)`);
const record = join(process.cwd(), 'deployments', `${network.name}.json`);
if (existsSync(record) && !values.force) fail(`${record} exists; pass --force to deploy again and replace it`);

const deployment = await deployService({
  rpcUrl,
  chain: network.chain,
  privateKey: privateKey as Hex,
  exchange: network.exchange,
  ...(feeRecipient ? { feeRecipient: feeRecipient as Address } : {}),
  log: (line) => process.stderr.write(`${line}\n`),
});
mkdirSync(join(process.cwd(), 'deployments'), { recursive: true });
writeFileSync(record, `${JSON.stringify(deployment, null, 2)}\n`);
process.stdout.write(`deployed to ${network.name}; wrote ${record}\n`);
