/**
 * Deploys the service's contracts (ServiceConfig, TradeRouter, LaunchFactory, ReferralVault) against an existing
 * PancakeSwap V3, Permit2 and WBNB, from one key, waiting for each receipt. Used by `npm run deploy` for BSC testnet
 * and mainnet, and by its test against the devnet.
 */
import {
  type Abi,
  type Address,
  type Chain,
  createPublicClient,
  createWalletClient,
  encodeDeployData,
  type Hex,
  http,
  type PublicClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { LaunchFactory, ReferralVault, ServiceConfig, TradeRouter } from '../src-main/chain/generated/contracts';

export interface DeployInput {
  rpcUrl: string;
  chain: Chain;
  privateKey: Hex;
  exchange: { pancakeFactory: Address; poolDeployer: Address; wbnb: Address; permit2: Address };
  /** Receives the site fee and the launch fee; the deployer when not given. */
  feeRecipient?: Address;
  fees?: { siteFeeBps: number; referrerBps: number; lifetimeReferralBps: number };
  log?: (line: string) => void;
}

export interface Deployment {
  chainId: number;
  deployer: Address;
  config: Address;
  router: Address;
  factory: Address;
  referrals: Address;
  /** Block of the first deployment: where an indexer starts reading. */
  fromBlock: number;
  transactions: Hex[];
}

/** The spec's testnet fee rates: 1% site fee, 0.2% referrer cut, 15% lifetime share. */
export const DEFAULT_FEES = { siteFeeBps: 100, referrerBps: 20, lifetimeReferralBps: 1500 } as const;

export async function deployService(input: DeployInput): Promise<Deployment> {
  const log = input.log ?? (() => {});
  const account = privateKeyToAccount(input.privateKey);
  const transport = http(input.rpcUrl, { retryCount: 2 });
  const client = createPublicClient({ chain: input.chain, transport }) as PublicClient;
  const wallet = createWalletClient({ account, chain: input.chain, transport });
  const chainId = await client.getChainId();
  if (chainId !== input.chain.id) throw new Error(`the RPC serves chain ${chainId}, not ${input.chain.id}`);
  const transactions: Hex[] = [];
  let fromBlock: number | undefined;

  async function deploy(
    name: string,
    artifact: { abi: Abi; bytecode: Hex },
    args: readonly unknown[],
  ): Promise<Address> {
    log(`deploying ${name}...`);
    const hash = await wallet.sendTransaction({
      data: encodeDeployData({ abi: artifact.abi, bytecode: artifact.bytecode, args } as never),
    } as never);
    transactions.push(hash);
    const receipt = await client.waitForTransactionReceipt({ hash, timeout: 180_000 });
    if (receipt.status !== 'success' || !receipt.contractAddress)
      throw new Error(`${name} deployment reverted (${hash})`);
    fromBlock ??= Number(receipt.blockNumber);
    log(`${name} at ${receipt.contractAddress}`);
    return receipt.contractAddress;
  }

  const fees = input.fees ?? DEFAULT_FEES;
  const { pancakeFactory, poolDeployer, wbnb, permit2 } = input.exchange;
  const config = await deploy('ServiceConfig', ServiceConfig, [
    account.address,
    input.feeRecipient ?? account.address,
    fees.siteFeeBps,
    fees.referrerBps,
    fees.lifetimeReferralBps,
  ]);
  const router = await deploy('TradeRouter', TradeRouter, [config, poolDeployer, wbnb, permit2]);
  const factory = await deploy('LaunchFactory', LaunchFactory, [config, pancakeFactory, wbnb]);
  const referrals = await deploy('ReferralVault', ReferralVault, [config]);
  return {
    chainId,
    deployer: account.address,
    config,
    router,
    factory,
    referrals,
    fromBlock: fromBlock ?? 0,
    transactions,
  };
}
