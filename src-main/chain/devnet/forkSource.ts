import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Address, createPublicClient, http, type PublicClient } from 'viem';
import type { ForkInfo } from '../../../src-shared/appChannelTypes';
import { devnetAddresses } from '../../../src-shared/inspect/devnetContracts';
import { type ExchangeAddresses, NETWORKS } from '../networks';
import { politeFetch } from '../politeFetch';

/** The chains a rehearsal can fork: BSC mainnet and testnet, and our own devnets (served over HTTP). */
const SOURCES: Record<number, ForkInfo['sourceNetwork']> = { 56: 'mainnet', 97: 'testnet', 31337: 'devnet' };

/**
 * Blocks of state a public BSC node still holds behind its head (older state answers "missing trie node"). A fork
 * reads the source's state lazily, so a fork point older than this needs an archive RPC.
 */
export const PUBLIC_STATE_WINDOW = 128;

/** PancakeSwap's TickLens on BSC (not part of what the service uses; kept so a fork's contract list is whole). */
const TICK_LENS: Record<'mainnet' | 'testnet', Address> = {
  mainnet: '0x9a489505a00cE272eAa5e07Dba6491314CaE3796',
  testnet: '0xac1cE734566f390A94b00eb9bf561c2625BF44ea',
};

/** The network a source chain id stands for; null for chains a rehearsal cannot fork. */
export function sourceNetworkOf(chainId: number): ForkInfo['sourceNetwork'] | null {
  return SOURCES[chainId] ?? null;
}

/** The source of a fork as read from its RPC. */
export interface ForkSource {
  url: string;
  chainId: number;
  network: ForkInfo['sourceNetwork'];
  head: bigint;
}

/** Our contracts on the source, as a deployment record or the devnet's fixed addresses name them. */
export interface SourceContracts {
  config: Address;
  router: Address;
  factory: Address;
  referrals: Address;
}

/** Where a fork finds the exchange and (if the source has them) our contracts. */
export interface ForkAddresses {
  exchange: ExchangeAddresses & { tickLens: Address };
  /** Absent when the source has none of ours: they are deployed into the fork at start. */
  ours?: SourceContracts;
}

/** A fork that cannot start: the message says what is wrong and what to do. */
export class ForkError extends Error {
  override name = 'ForkError';
}

/** The URL as shown in logs and on screen: an API key in its path or query is not repeated. */
export function maskedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname)) return url;
    const hidden = parsed.pathname.length > 1 || parsed.search !== '' || parsed.username !== '';
    return `${parsed.protocol}//${parsed.host}${hidden ? '/…' : ''}`;
  } catch {
    return '(an unreadable URL)';
  }
}

/** Reads which chain the RPC at `url` serves and its head; refuses chains a rehearsal cannot fork. */
export async function readForkSource(url: string, timeoutMs?: number): Promise<ForkSource> {
  if (!/^https?:\/\//i.test(url)) {
    throw new ForkError(`--fork takes an http:// or https:// RPC URL, not "${url}"`);
  }
  const client = createPublicClient({
    transport: http(url, { retryCount: 1, fetchFn: politeFetch(), ...(timeoutMs ? { timeout: timeoutMs } : {}) }),
  }) as PublicClient;
  let chainId: number;
  let head: bigint;
  try {
    [chainId, head] = await Promise.all([client.getChainId(), client.getBlockNumber({ cacheTime: 0 })]);
  } catch (error) {
    throw new ForkError(
      `the chain to fork did not answer at ${maskedUrl(url)} (${(error as Error).message.split('\n')[0]}); check the URL and that the node is up`,
    );
  }
  const network = sourceNetworkOf(chainId);
  if (!network) {
    throw new ForkError(
      `${maskedUrl(url)} serves chain ${chainId}; a rehearsal forks BSC mainnet (56), BSC testnet (97) or one of our devnets (31337)`,
    );
  }
  return { url, chainId, network, head };
}

/** The block to fork at: the one asked for, else the last rehearsal of this source (to replay it), else the head. */
export function forkBlockOf(source: ForkSource, asked: bigint | 'latest' | undefined, resumed: bigint | null): bigint {
  const block = asked === 'latest' ? source.head : (asked ?? resumed ?? source.head);
  if (block > source.head) {
    throw new ForkError(
      `--fork-block ${block} is past the head of ${maskedUrl(source.url)} (block ${source.head}); choose an earlier block`,
    );
  }
  return block;
}

/**
 * Where the exchange and our contracts are on the source: our devnets have fixed addresses; BSC has PancakeSwap's
 * published ones and ours from `deployments/<network>.json` when they were deployed there.
 */
export function forkAddresses(source: ForkSource, deploymentsDir: string): ForkAddresses {
  if (source.network === 'devnet') {
    const devnet = devnetAddresses();
    return {
      exchange: {
        pancakeFactory: devnet.pancakeFactory,
        poolDeployer: devnet.poolDeployer,
        quoter: devnet.quoter,
        swapRouter: devnet.swapRouter,
        positionManager: devnet.positionManager,
        wbnb: devnet.wbnb,
        usdt: devnet.usdt,
        permit2: devnet.permit2,
        tickLens: devnet.tickLens,
      },
      ours: {
        config: devnet.config,
        router: devnet.router,
        factory: devnet.factory,
        referrals: devnet.referrals,
      },
    };
  }
  const published = NETWORKS[source.network].exchange;
  if (!published) throw new ForkError(`no published exchange is known for ${source.network}`);
  const file = join(deploymentsDir, `${source.network}.json`);
  const record = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<SourceContracts> & { exchange?: Partial<ExchangeAddresses> })
    : null;
  const exchange = { ...published, ...record?.exchange, tickLens: TICK_LENS[source.network] };
  const { config, router, factory, referrals } = record ?? {};
  return {
    exchange,
    ...(config && router && factory && referrals ? { ours: { config, router, factory, referrals } } : {}),
  };
}
