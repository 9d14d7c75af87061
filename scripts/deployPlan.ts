/**
 * What `npm run deploy` is about to do, worked out before anything is signed: the four contracts in order, each with
 * its constructor arguments by name, the nonce it is sent with and the address that nonce gives it, the gas it needs,
 * and what that costs at the chain's current fees against the deployer's balance. formatPlan writes it for the person
 * who confirms it.
 */
import {
  type Abi,
  type Address,
  encodeDeployData,
  getContractAddress,
  type Hex,
  isAddressEqual,
  type PublicClient,
} from 'viem';
import { EXCHANGE_LABELS } from '../src-main/chain/exchangeCheck';
import { LaunchFactory, ReferralVault, ServiceConfig, TradeRouter } from '../src-main/chain/generated/contracts';
import type { ExchangeAddresses } from '../src-main/chain/networks';
import { formatAmount, formatExact } from '../src-shared/format/numbers';
import { formatBps } from '../src-shared/inspect/humanUnits';

/** The fee rates ServiceConfig starts with, in basis points; the owner may change them later, within hard caps. */
export interface FeeRates {
  siteFeeBps: number;
  referrerBps: number;
  lifetimeReferralBps: number;
}

/** The spec's testnet fee rates: 1% site fee, 0.2% referrer cut, 15% lifetime share. */
export const DEFAULT_FEES: FeeRates = { siteFeeBps: 100, referrerBps: 20, lifetimeReferralBps: 1500 };

/** Our contracts in the order they are deployed: the later ones take ServiceConfig's address. */
export const DEPLOY_ORDER = ['ServiceConfig', 'TradeRouter', 'LaunchFactory', 'ReferralVault'] as const;
export type ContractName = (typeof DEPLOY_ORDER)[number];

export const ARTIFACTS: Record<ContractName, { abi: Abi; bytecode: Hex }> = {
  ServiceConfig,
  TradeRouter,
  LaunchFactory,
  ReferralVault,
};

/** How many times the deployer's nonce is read (see planDeployment). */
const NONCE_READS = 3;

/** Extra gas over the estimate: creation gas is deterministic, so this only covers a node estimating a little low. */
const GAS_MARGIN_PERCENT = 10n;

/** What every deployment is made from. */
export interface DeploySettings {
  chainId: number;
  deployer: Address;
  exchange: ExchangeAddresses;
  feeRecipient: Address;
  fees: FeeRates;
}

/** One constructor argument: its name in the source (without the trailing underscore) and its value. */
export interface ConstructorArgument {
  name: string;
  value: Address | number;
}

/** Where the contracts deployed so far are: the later constructors take ServiceConfig's address. */
export type Deployed = Partial<Record<ContractName, Address>>;

/**
 * The constructor arguments of `name`, in the ABI's order, named as the source names them. Throws when the contract's
 * constructor takes an argument this script does not fill, so a change to a constructor cannot deploy with a gap.
 */
export function constructorArguments(
  name: ContractName,
  settings: DeploySettings,
  deployed: Deployed,
): ConstructorArgument[] {
  const { exchange, fees } = settings;
  const config = deployed.ServiceConfig;
  const values: Record<ContractName, Record<string, Address | number | undefined>> = {
    ServiceConfig: {
      owner_: settings.deployer,
      feeRecipient_: settings.feeRecipient,
      siteFeeBps_: fees.siteFeeBps,
      referrerBps_: fees.referrerBps,
      lifetimeBps_: fees.lifetimeReferralBps,
    },
    TradeRouter: {
      config_: config,
      poolDeployer_: exchange.poolDeployer,
      wbnb_: exchange.wbnb,
      permit2_: exchange.permit2,
    },
    LaunchFactory: { config_: config, pancakeFactory_: exchange.pancakeFactory, wbnb_: exchange.wbnb },
    ReferralVault: { config_: config },
  };
  const creation = ARTIFACTS[name].abi.find((item) => item.type === 'constructor');
  const inputs = creation && 'inputs' in creation ? creation.inputs : [];
  return inputs.map((input) => {
    const value = values[name][input.name ?? ''];
    if (value === undefined) {
      throw new Error(
        `${name}'s constructor takes ${input.name}, which scripts/deployPlan.ts does not fill; add it there`,
      );
    }
    return { name: (input.name ?? '').replace(/_$/, ''), value };
  });
}

/** The creation transaction's data: the build's creation code and the encoded constructor arguments. */
export function deployData(name: ContractName, args: readonly ConstructorArgument[]): Hex {
  const { abi, bytecode } = ARTIFACTS[name];
  return encodeDeployData({ abi, bytecode, args: args.map((a) => a.value) } as never);
}

export interface PlannedContract {
  name: ContractName;
  nonce: number;
  /** Where the contract lands if it is sent with `nonce`. */
  address: Address;
  args: ConstructorArgument[];
  gasEstimate: bigint;
  /** The gas limit it is sent with. */
  gas: bigint;
}

export interface DeployPlan extends DeploySettings {
  balance: bigint;
  /** The deployer's next nonce, counting its pending transactions. */
  nonce: number;
  /** Transactions of the deployer sent and not yet mined (a previous run's, say). */
  pendingBefore: number;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
  contracts: PlannedContract[];
  gasTotal: bigint;
  /** What the four transactions cost at most: every gas limit at the max fee per gas. */
  costAtMost: bigint;
}

/**
 * Works out the deployment from the chain: the deployer's balance and nonce, the fees, and for each contract the
 * address its nonce gives it and the gas `eth_estimateGas` says its creation takes (the later constructors only store
 * ServiceConfig's address, so they are estimated with the address it will have).
 */
export async function planDeployment(client: PublicClient, settings: DeploySettings): Promise<DeployPlan> {
  const { deployer } = settings;
  // A public endpoint balances requests over nodes that may be a block or two behind: the nonce is asked of several,
  // and the highest count taken (a count too low would only collide and be signed again, a Ledger asked twice).
  const counts = (blockTag: 'pending' | 'latest') =>
    Promise.all(Array.from({ length: NONCE_READS }, () => client.getTransactionCount({ address: deployer, blockTag })));
  const [balance, pendings, latests, fees] = await Promise.all([
    client.getBalance({ address: deployer }),
    counts('pending'),
    counts('latest'),
    client.estimateFeesPerGas(),
  ]);
  const pending = Math.max(...pendings);
  const latest = Math.max(...latests);
  const deployed: Deployed = {};
  const contracts: PlannedContract[] = [];
  for (const [i, name] of DEPLOY_ORDER.entries()) {
    const nonce = pending + i;
    const address = getContractAddress({ from: deployer, nonce: BigInt(nonce) });
    const args = constructorArguments(name, settings, deployed);
    const gasEstimate = await client.estimateGas({ account: deployer, data: deployData(name, args) });
    const gas = gasEstimate + (gasEstimate * GAS_MARGIN_PERCENT) / 100n;
    contracts.push({ name, nonce, address, args, gasEstimate, gas });
    deployed[name] = address;
  }
  const gasTotal = contracts.reduce((sum, c) => sum + c.gas, 0n);
  return {
    ...settings,
    balance,
    nonce: pending,
    pendingBefore: Math.max(0, pending - latest),
    maxFeePerGas: fees.maxFeePerGas,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    contracts,
    gasTotal,
    costAtMost: gasTotal * fees.maxFeePerGas,
  };
}

/** BNB as a person reads it; `round` as formatAmount's (a cost rounds up, a balance down). */
export function bnb(wei: bigint, round: 'up' | 'down' | 'nearest' = 'nearest'): string {
  return `${formatAmount(wei, 18, { round })} BNB`;
}

/** Fee rates written as percentages with their basis points. */
export function rate(bps: number): string {
  return `${formatBps(bps)} (${bps} bps)`;
}

/** What an address is in this deployment, for the person reading the plan. */
function labelOf(address: Address, plan: DeployPlan): string {
  const labels: string[] = [];
  if (isAddressEqual(address, plan.deployer)) labels.push('the deployer');
  if (isAddressEqual(address, plan.feeRecipient)) labels.push('the fee recipient');
  for (const contract of plan.contracts) {
    if (isAddressEqual(address, contract.address)) labels.push(`${contract.name}, deployed above`);
  }
  for (const [role, label] of Object.entries(EXCHANGE_LABELS)) {
    if (isAddressEqual(address, plan.exchange[role as keyof ExchangeAddresses])) labels.push(label);
  }
  return labels.length > 0 ? `${address} (${labels.join(', ')})` : address;
}

function valueText(arg: ConstructorArgument, plan: DeployPlan): string {
  return typeof arg.value === 'number' ? rate(arg.value) : labelOf(arg.value, plan);
}

/**
 * The plan as the person confirms it: the network and signer, who owns and who is paid, the fee rates, each contract
 * with its constructor arguments by name, and the gas and what it costs against the balance.
 */
export function formatPlan(plan: DeployPlan, context: { network: string; rpcUrl: string; signer: string }): string {
  const { fees } = plan;
  const width = Math.max(...plan.contracts.flatMap((c) => c.args.map((a) => a.name.length)));
  const lines = [
    `Deploying the service's contracts to ${context.network} (chain ${plan.chainId}) through ${context.rpcUrl}`,
    '',
    `Deployer:       ${plan.deployer} (${context.signer})`,
    `  balance       ${bnb(plan.balance, 'down')}`,
    `  next nonce    ${plan.nonce}${plan.pendingBefore > 0 ? ` (${plan.pendingBefore} of its transactions are still pending, a previous run's perhaps: these come after them)` : ''}`,
    `Owner:          ${plan.deployer} (the deployer owns every contract: fee rates, launch fee, pause, referral roots)`,
    `Fee recipient:  ${plan.feeRecipient} (${isAddressEqual(plan.feeRecipient, plan.deployer) ? 'the deployer; ' : ''}receives the site fee and the launch fee)`,
    'Fee rates:',
    `  site fee                 ${rate(fees.siteFeeBps)} of each trade`,
    `  referrer's instant cut   ${rate(fees.referrerBps)} of the trade, paid out of the site fee`,
    `  lifetime referral share  ${rate(fees.lifetimeReferralBps)} of the service's income from referred wallets`,
    '  launch fee               0 BNB (launching is free until the owner sets one, 1 BNB at most)',
    '',
  ];
  for (const [i, contract] of plan.contracts.entries()) {
    lines.push(`${i + 1}. ${contract.name}, nonce ${contract.nonce}, will be at ${contract.address}`);
    for (const arg of contract.args) lines.push(`     ${arg.name.padEnd(width)}  ${valueText(arg, plan)}`);
    lines.push(`     gas ${formatExact(contract.gas, 0)} (estimated ${formatExact(contract.gasEstimate, 0)})`);
  }
  lines.push(
    '',
    `Gas: ${formatExact(plan.gasTotal, 0)} in all, at most ${formatAmount(plan.maxFeePerGas, 9, { round: 'up' })} gwei ` +
      `per gas: at most ${bnb(plan.costAtMost, 'up')} of the deployer's ${bnb(plan.balance, 'down')}`,
  );
  return `${lines.join('\n')}\n`;
}
