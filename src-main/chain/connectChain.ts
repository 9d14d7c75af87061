import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Address, createPublicClient, custom, type PublicClient } from 'viem';
import type { ForkInfo } from '../../src-shared/appChannelTypes';
import type { Logger } from '../log/createLogger';
import type { DevnetJournal } from '../store/devnetJournal';
import { ForkError, forkAddresses, forkBlockOf, maskedUrl, readForkSource } from './devnet/forkSource';
import { type Devnet, startDevnet } from './devnet/startDevnet';
import type { HeadTracker } from './headTracker';
import { type ExchangeAddresses, NETWORKS, type NetworkName } from './networks';
import { rpcClient } from './rpcClient';

/** Every contract the service reads or builds for, on the connected network. */
export interface ServiceAddresses {
  /** Our contracts; factory, router and referrals appear once deployed on the network. */
  config: Address;
  factory?: Address;
  router?: Address;
  referrals?: Address;
  permit2: Address;
  quoter: Address;
  wbnb: Address;
  usdt: Address;
  pancakeFactory: Address;
  poolDeployer: Address;
  swapRouter: Address;
  positionManager: Address;
}

/** What `npm run deploy` writes to deployments/<network>.json (the fields read here). */
interface DeploymentRecord {
  config: Address;
  factory?: Address;
  router?: Address;
  referrals?: Address;
  fromBlock?: number;
  /**
   * The exchange's addresses where they differ from the published PancakeSwap ones: a private chain or a fork that
   * deployed its own (tests point a testnet-shaped run at a devnet through this).
   */
  exchange?: Partial<ExchangeAddresses>;
}

export interface ChainContext {
  network: NetworkName;
  chainId: number;
  client: PublicClient;
  addresses: ServiceAddresses;
  /** The block the service's contracts were deployed in: where log searches start. */
  deployBlock: bigint;
  /** Present on the embedded devnet and on a fork (which is the embedded EVM forked from another chain). */
  devnet?: Devnet;
  /** Present on a rehearsal: what it forked. */
  fork?: ForkInfo;
  /** Over an RPC URL: the highest head its nodes reported and the measured block time (see rpcClient). */
  heads?: HeadTracker;
  /** Over an RPC URL: how new blocks are noticed. */
  newBlocks?: 'poll' | 'newHeads';
  /** Called on every new block. Returns the function that unsubscribes. */
  onBlock(listener: (blockNumber: bigint) => void): () => void;
  /**
   * Runs chain reads that must see one consistent chain (a log follower's batch): on the devnet they wait for blocks
   * being made and throw-away copies to finish; elsewhere they just run.
   */
  consistentRead<T>(work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface ConnectOptions {
  network: NetworkName;
  rpcUrl?: string;
  /** Folder of `<network>.json` deployment records (the deploy command writes them). */
  deploymentsDir: string;
  journal?: DevnetJournal;
  /** The service's logger: the chain logs on its children 'chain' and 'devnet'. */
  log?: Logger;
  /** Wall clock in Unix ms for the devnet's block times; tests move it. */
  now?: () => number;
  /** How long one RPC request may take before it counts as failed (viem's 10 s by default). */
  rpcTimeoutMs?: number;
  /**
   * On `fork`: the block to fork at ('latest' for the source's head); by default the last rehearsal of the same RPC
   * (`rpcUrl`) is resumed so its journal replays, or the head when there was none.
   */
  forkBlock?: bigint | 'latest';
  /** On `fork`: where the EVM caches what it read from the source. */
  forkCacheDir?: string;
  /** The devnet runs with BSC's fee settings (base fee 0, a minimum gas price). */
  bscFees?: boolean;
  /** Devnet and fork: a block every this many milliseconds (BSC: 750); 0 mines each transaction at once. */
  blockTimeMs?: number;
}

/** The service's view of the embedded EVM, on the devnet or on a fork. */
function embeddedChain(devnet: Devnet, network: NetworkName, deployBlock: bigint): ChainContext {
  const { contracts } = devnet;
  return {
    network,
    chainId: devnet.chainId,
    client: createPublicClient({ chain: NETWORKS[network].chain, transport: custom(devnet.provider) }),
    addresses: {
      config: contracts.config,
      router: contracts.router,
      factory: contracts.factory,
      referrals: contracts.referrals,
      permit2: contracts.permit2,
      quoter: contracts.quoter,
      wbnb: contracts.wbnb,
      usdt: contracts.usdt,
      pancakeFactory: contracts.pancakeFactory,
      poolDeployer: contracts.poolDeployer,
      swapRouter: contracts.swapRouter,
      positionManager: contracts.positionManager,
    },
    devnet,
    ...(devnet.fork ? { fork: devnet.fork } : {}),
    deployBlock,
    onBlock: (listener) => devnet.onBlock(listener),
    consistentRead: (work) => devnet.between(work),
    close: async () => devnet.stop(),
  };
}

/** Connects to the configured chain: starts the embedded devnet, or reads a BSC network over its RPC URL. */
export async function connectChain(options: ConnectOptions): Promise<ChainContext> {
  const config = NETWORKS[options.network];
  const log = options.log?.child({ component: 'chain' });
  const devnetOptions = {
    ...(options.journal ? { journal: options.journal } : {}),
    ...(options.log ? { log: options.log.child({ component: 'devnet' }) } : {}),
    ...(options.now ? { now: () => Math.floor((options.now as () => number)() / 1000) } : {}),
    ...(options.bscFees ? { bscFees: true } : {}),
    ...(options.blockTimeMs ? { blockTimeMs: options.blockTimeMs } : {}),
  };
  if (options.network === 'devnet') return embeddedChain(await startDevnet(devnetOptions), 'devnet', 0n);
  if (options.network === 'fork') {
    if (!options.rpcUrl) {
      throw new ForkError(
        '--fork URL is needed for a rehearsal: the RPC of the chain to fork (BSC mainnet or testnet)',
      );
    }
    const source = await readForkSource(options.rpcUrl, options.rpcTimeoutMs);
    const blockNumber = forkBlockOf(source, options.forkBlock, options.journal?.lastForkBlock(source.url) ?? null);
    const behind = source.head - blockNumber;
    if (source.network !== 'devnet' && behind > 100n) {
      log?.warn(
        `fork: block ${blockNumber} is ${behind} blocks behind the head; public BSC RPCs keep only the last 128 blocks of state, so this rehearsal needs an archive RPC`,
      );
    }
    const devnet = await startDevnet({
      ...devnetOptions,
      fork: {
        point: {
          url: source.url,
          sourceChainId: source.chainId,
          blockNumber,
          cacheDir: options.forkCacheDir ?? join(tmpdir(), 'launchpad-companion-fork-cache'),
        },
        addresses: forkAddresses(source, options.deploymentsDir),
      },
    });
    log?.info(
      `fork: rehearsing on a fork of ${source.network} (chain ${source.chainId}) at block ${blockNumber} via ${maskedUrl(source.url)}, as chain ${devnet.chainId}: nothing signed here is valid on ${source.network}; our contracts ${devnet.fork?.contracts === 'found' ? `are the ${source.network}'s own` : 'were deployed into the fork'}`,
    );
    // Launches are indexed from the fork block on (the source's earlier launches are still quoted and traded).
    return embeddedChain(devnet, 'fork', blockNumber);
  }

  if (!options.rpcUrl) {
    throw new Error(`--rpc URL is needed for ${options.network}: the service reads the chain through it`);
  }
  const record = join(options.deploymentsDir, `${options.network}.json`);
  if (!existsSync(record) || !config.exchange) {
    throw new Error(
      `the service's contracts are not deployed on ${options.network} yet (no ${record}); deploy them with npm run deploy, or run on the devnet`,
    );
  }
  const ours = JSON.parse(readFileSync(record, 'utf8')) as DeploymentRecord;
  const rpc = rpcClient(config.chain, options.rpcUrl, {
    ...(options.rpcTimeoutMs ? { timeoutMs: options.rpcTimeoutMs } : {}),
    ...(log ? { log } : {}),
  });
  return {
    network: options.network,
    chainId: config.chain.id,
    client: rpc.client,
    addresses: {
      ...config.exchange,
      ...ours.exchange,
      config: ours.config,
      ...(ours.factory ? { factory: ours.factory } : {}),
      ...(ours.router ? { router: ours.router } : {}),
      ...(ours.referrals ? { referrals: ours.referrals } : {}),
    },
    deployBlock: BigInt(ours.fromBlock ?? 0),
    heads: rpc.heads,
    newBlocks: rpc.newBlocks,
    onBlock: rpc.onBlock,
    consistentRead: (work) => work(),
    close: async () => rpc.close(),
  };
}
