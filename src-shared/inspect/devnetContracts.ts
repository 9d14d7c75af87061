import { getContractAddress } from 'viem';
import type { KnownContracts, TokenInfos } from './knownContracts';

export const DEVNET_CHAIN_ID = 31337;

/** Test account 0 of the public development mnemonic: the devnet's deployer, and its site fee recipient. */
const DEVNET_OPERATOR = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const PERMIT2 = '0x000000000022D473030F116dDEE9F6B43aC78BA3';

/**
 * The operator's nonce of each deployment in `deployDevnet` (src-main/chain/devnet/deployDevnet.ts): every devnet
 * start deploys from a fresh chain in this order, so each address follows from the operator and the nonce alone.
 * Nonce 4 is a call (PoolDeployer.setFactoryAddress), not a deployment. test/inspect.cli.test.ts compares the
 * result with a running devnet's GET /settings, so a change of order there fails a test here.
 */
const DEPLOY_NONCES = {
  wbnb: 0,
  usdt: 1,
  poolDeployer: 2,
  pancakeFactory: 3,
  swapRouter: 5,
  positionManager: 6,
  quoter: 7,
  tickLens: 8,
  config: 9,
  router: 10,
  factory: 11,
  referrals: 12,
} as const;

const at = (nonce: number) => getContractAddress({ from: DEVNET_OPERATOR, nonce: BigInt(nonce) });

/**
 * Every contract of a devnet by name (the exchange's and ours), Permit2 at its canonical address, and the operator
 * that deployed them and receives the site fee: where a fork of one of our devnets finds them.
 */
export function devnetAddresses(): Record<keyof typeof DEPLOY_NONCES | 'permit2' | 'operator', `0x${string}`> {
  const named = Object.fromEntries(Object.entries(DEPLOY_NONCES).map(([name, nonce]) => [name, at(nonce)]));
  return {
    ...(named as Record<keyof typeof DEPLOY_NONCES, `0x${string}`>),
    permit2: PERMIT2,
    operator: DEVNET_OPERATOR,
  };
}

/**
 * The embedded devnet's contracts, computed without starting it: what the offline inspector checks a devnet build
 * against when no saved settings are given.
 */
export function devnetKnownContracts(): { known: KnownContracts; tokens: TokenInfos } {
  const devnet = devnetAddresses();
  return {
    known: {
      chainId: DEVNET_CHAIN_ID,
      factory: devnet.factory,
      router: devnet.router,
      permit2: devnet.permit2,
      referrals: devnet.referrals,
      wbnb: devnet.wbnb,
      siteFeeRecipient: devnet.operator,
    },
    tokens: { [devnet.usdt]: { symbol: 'USDT', decimals: 18 } },
  };
}
