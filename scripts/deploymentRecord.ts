/**
 * `deployments/<network>.json`: what connectChain reads to serve the network (config, factory, router, referrals,
 * fromBlock, exchange), and what lets a person audit the deployment without this program: who deployed and owns it,
 * each contract's transaction, block, nonce, constructor arguments and code hash, the fee settings and the compiler.
 */
import { closeSync, copyFileSync, existsSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Address, Hex } from 'viem';
import { BUILD_COMPILER } from '../src-main/chain/deployedCode';
import type { ExchangeAddresses, NetworkName } from '../src-main/chain/networks';
import type { ContractName, DeployPlan } from './deployPlan';
import type { DeployedContract } from './deployService';

export interface DeploymentRecord {
  network: NetworkName;
  chainId: number;
  config: Address;
  router: Address;
  factory: Address;
  referrals: Address;
  /** The block of the first deployment transaction: where the indexer starts reading. */
  fromBlock: number;
  /** The exchange our contracts were deployed against (the router and the factory keep these addresses for good). */
  exchange: ExchangeAddresses;
  deployer: Address;
  owner: Address;
  /** What signed: "local key from DEPLOYER_PRIVATE_KEY" or "Ledger, <path>". */
  signer: string;
  fees: {
    feeRecipient: Address;
    siteFeeBps: number;
    referrerBps: number;
    lifetimeReferralBps: number;
    /** The launch fee ServiceConfig starts with, in wei: none until the owner sets one. */
    launchFeeWei: string;
  };
  compiler: { version: string; settings: unknown };
  contracts: Record<
    ContractName,
    {
      address: Address;
      transaction: Hex;
      nonce: number;
      block: number;
      /** keccak256 of the runtime code on chain (EXTCODEHASH), checked equal to this build's before writing. */
      codeHash: Hex;
      constructorArguments: Record<string, Address | number>;
    }
  >;
  /** The deployment transactions, in the order they were sent. */
  transactions: Hex[];
  /** When the record was written (ISO 8601). */
  writtenAt: string;
}

export function deploymentRecord(
  network: NetworkName,
  plan: DeployPlan,
  signer: string,
  deployed: readonly DeployedContract[],
  now: Date = new Date(),
): DeploymentRecord {
  const at = (name: ContractName): DeployedContract => {
    const contract = deployed.find((c) => c.name === name);
    if (!contract) throw new Error(`${name} was not deployed`);
    return contract;
  };
  const contracts = Object.fromEntries(
    deployed.map((c) => [
      c.name,
      {
        address: c.address,
        transaction: c.transaction,
        nonce: c.nonce,
        block: c.block,
        codeHash: c.codeHash,
        constructorArguments: Object.fromEntries(c.args.map((a) => [a.name, a.value])),
      },
    ]),
  ) as DeploymentRecord['contracts'];
  return {
    network,
    chainId: plan.chainId,
    config: at('ServiceConfig').address,
    router: at('TradeRouter').address,
    factory: at('LaunchFactory').address,
    referrals: at('ReferralVault').address,
    fromBlock: Math.min(...deployed.map((c) => c.block)),
    exchange: plan.exchange,
    deployer: plan.deployer,
    owner: plan.deployer,
    signer,
    fees: { feeRecipient: plan.feeRecipient, ...plan.fees, launchFeeWei: '0' },
    compiler: { version: BUILD_COMPILER.version, settings: BUILD_COMPILER.settings },
    contracts,
    transactions: deployed.map((c) => c.transaction),
    writtenAt: now.toISOString(),
  };
}

/**
 * Writes `content` to `path` so that a reader only ever sees the old file or the whole new one: into a temporary file
 * beside it, flushed to disk, then renamed over it. An existing file is first copied to a backup beside it, whose path
 * is returned.
 */
export function writeAtomically(path: string, content: string, now: Date = new Date()): { backup?: string } {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  let backup: string | undefined;
  try {
    const fd = openSync(temporary, 'wx');
    try {
      writeSync(fd, content);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (existsSync(path)) {
      const stamp = now.toISOString().replace(/[:.]/g, '-');
      backup = join(dirname(path), `${basename(path, '.json')}.backup-${stamp}.json`);
      copyFileSync(path, backup);
    }
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  return backup ? { backup } : {};
}

/**
 * Refuses before anything is signed when the record could not be written afterwards: the folder cannot be created or
 * written to (a deployment whose record is lost has to be pieced together from the explorer).
 */
export function probeWritable(dir: string): void {
  const probe = join(dir, `.deploy-probe.${process.pid}`);
  const fd = openSync(probe, 'w');
  closeSync(fd);
  rmSync(probe, { force: true });
}
