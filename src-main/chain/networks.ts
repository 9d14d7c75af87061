import { type Address, type Chain, defineChain } from 'viem';
import { bsc, bscTestnet } from 'viem/chains';
import type { NetworkName } from '../../src-shared/appChannelTypes';

export type { NetworkName };
export const NETWORK_NAMES: readonly NetworkName[] = ['devnet', 'testnet', 'mainnet', 'fork'];

export const devnetChain = defineChain({
  id: 31337,
  name: 'devnet',
  nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 },
  rpcUrls: { default: { http: [] } },
});

/**
 * A rehearsal's own chain id: the embedded EVM forked from another chain signs and checks transactions under it, so
 * nothing signed in a rehearsal is valid on BNB Chain (56, 97) or on the devnet it may have forked (31337).
 */
export const FORK_CHAIN_ID = 31338;

export const forkChain = defineChain({
  id: FORK_CHAIN_ID,
  name: 'fork',
  nativeCurrency: { name: 'BNB', symbol: 'BNB', decimals: 18 },
  rpcUrls: { default: { http: [] } },
});

/** PancakeSwap V3 and the tokens around it on BSC (PancakeSwap's published addresses; the core is the same on both). */
export interface ExchangeAddresses {
  pancakeFactory: Address;
  poolDeployer: Address;
  quoter: Address;
  swapRouter: Address;
  positionManager: Address;
  wbnb: Address;
  usdt: Address;
  permit2: Address;
}

/** Permit2's canonical address, the same on every chain it is deployed on. */
export const PERMIT2_ADDRESS: Address = '0x000000000022D473030F116dDEE9F6B43aC78BA3';

export interface NetworkConfig {
  name: NetworkName;
  chain: Chain;
  /** The published exchange on 56/97; on the devnet these are read from the deployment at start. */
  exchange?: ExchangeAddresses;
}

const PANCAKE_V3_CORE = {
  pancakeFactory: '0x0BFbCF9fa4f9C56B0F40a671Ad40E0805A091865',
  poolDeployer: '0x41ff9AA7e16B8B1a8a8dc4f0eFacd93D02d071c9',
  swapRouter: '0x1b81D678ffb9C0263b24A97847620C99d213eB14',
  permit2: PERMIT2_ADDRESS,
} as const;

export const NETWORKS: Record<NetworkName, NetworkConfig> = {
  devnet: { name: 'devnet', chain: devnetChain },
  // A fork's exchange and contracts are those of the chain it forks, found at start (chain/devnet/forkSource.ts).
  fork: { name: 'fork', chain: forkChain },
  testnet: {
    name: 'testnet',
    chain: bscTestnet,
    // The periphery on the testnet sits at other addresses than on mainnet (the mainnet's quoter address holds another
    // contract there).
    exchange: {
      ...PANCAKE_V3_CORE,
      quoter: '0xbC203d7f83677c7ed3F7acEc959963E7F4ECC5C2',
      positionManager: '0x427bF5b37357632377eCbEC9de3626C71A5396c1',
      wbnb: '0xae13d989daC2f0dEbFf460aC112a837C89BAa7cd',
      usdt: '0x337610d27c682E347C9cD60BD4b3b107C9d34dDd',
    },
  },
  mainnet: {
    name: 'mainnet',
    chain: bsc,
    exchange: {
      ...PANCAKE_V3_CORE,
      quoter: '0xB048Bbc1Ee6b733FFfCFb9e9CeF7375518e25997',
      positionManager: '0x46A15B0b27311cedF172AB29E4f4766fbE7F4364',
      wbnb: '0xbb4CdB9CBd36B01bD1cBaEBF2De08d9173bc095c',
      usdt: '0x55d398326f99059fF775485246999027B3197955',
    },
  },
};
