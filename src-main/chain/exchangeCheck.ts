import { type Address, isAddressEqual, type PublicClient, parseAbi, zeroAddress } from 'viem';
import { formatFeeTier } from '../../src-shared/inspect/humanUnits';
import type { ExchangeAddresses } from './networks';
import { PANCAKE_POOL_INIT_CODE_HASH, pancakePoolAddress } from './poolAddress';

/** Which of the exchange's addresses, as a person knows it. */
export const EXCHANGE_LABELS: Record<keyof ExchangeAddresses, string> = {
  pancakeFactory: 'PancakeSwap V3 factory',
  poolDeployer: 'PancakeSwap V3 pool deployer',
  quoter: 'PancakeSwap V3 quoter (QuoterV2)',
  swapRouter: 'PancakeSwap V3 swap router',
  positionManager: 'PancakeSwap V3 position manager',
  wbnb: 'WBNB',
  usdt: 'USDT',
  permit2: 'Permit2',
};

/** PancakeSwap V3's fee tiers, where a WBNB/USDT pool is looked for. */
const FEE_TIERS = [100, 500, 2500, 10000] as const;

const abi = parseAbi([
  'function poolDeployer() view returns (address)',
  'function getPool(address tokenA, address tokenB, uint24 fee) view returns (address)',
  'function factoryAddress() view returns (address)',
  'function factory() view returns (address)',
  'function deployer() view returns (address)',
  'function WETH9() view returns (address)',
]);

/** One address that failed, and why. */
export interface ExchangeProblem {
  role: keyof ExchangeAddresses;
  address: Address;
  reason: string;
}

/** What checkExchange verified, and what it could not (said, never passed over). */
export interface ExchangeCheck {
  chainId: number;
  /** One line per thing verified. */
  checked: string[];
  /** One line per thing that could not be verified on this chain, with why. */
  unchecked: string[];
}

/**
 * The exchange's addresses are not PancakeSwap V3 as our contracts need it. `problems` names each address that failed
 * and why; `message` lists them all, one a line.
 */
export class ExchangeCheckError extends Error {
  override readonly name = 'ExchangeCheckError';
  readonly code = 'EXCHANGE_MISMATCH';
  readonly fix =
    "Check the exchange's addresses for this chain (src-main/chain/networks.ts for BSC, the exchange file for a " +
    'devnet) and that the RPC serves the chain you mean; nothing was deployed or changed.';

  constructor(
    readonly chainId: number,
    readonly problems: readonly ExchangeProblem[],
  ) {
    super(
      `The exchange on chain ${chainId} is not the PancakeSwap V3 our contracts work with:\n` +
        problems.map((p) => `  - ${EXCHANGE_LABELS[p.role]} ${p.address}: ${p.reason}`).join('\n'),
    );
  }
}

/**
 * Checks, on the chain behind `client`, that the exchange at `addresses` is what our contracts and the service rely on:
 * code at each of the eight addresses; the factory, pool deployer, quoter, swap router and position manager pointing
 * at one another and at WBNB; and the factory's pools sitting where our pool init code hash puts them (the router
 * computes pool addresses with it, never asking the factory), compared on each WBNB/USDT pool the factory has. Throws
 * an ExchangeCheckError naming every address that fails; returns what was checked and what could not be (no WBNB/USDT
 * pool at any fee tier leaves the init code hash unchecked, and says so).
 *
 * @example await checkExchange(client, NETWORKS.testnet.exchange) // before deploying to, or serving, chain 97
 */
export async function checkExchange(client: PublicClient, addresses: ExchangeAddresses): Promise<ExchangeCheck> {
  const chainId = await client.getChainId();
  const problems: ExchangeProblem[] = [];
  const checked: string[] = [];
  const unchecked: string[] = [];
  const roles = Object.keys(EXCHANGE_LABELS) as (keyof ExchangeAddresses)[];
  const fail = (role: keyof ExchangeAddresses, reason: string) =>
    problems.push({ role, address: addresses[role], reason });

  const codes = await Promise.all(roles.map((role) => client.getCode({ address: addresses[role] })));
  const hasCode = new Set<keyof ExchangeAddresses>();
  roles.forEach((role, i) => {
    const code = codes[i];
    if (code && code !== '0x') hasCode.add(role);
    else fail(role, `there is no contract at this address on chain ${chainId} (no code: an account, or nothing)`);
  });
  if (hasCode.size === roles.length) checked.push(`code is present at all ${roles.length} addresses`);

  /** An address-returning getter, or null when the contract does not answer it. */
  const read = async (role: keyof ExchangeAddresses, functionName: (typeof abi)[number]['name'], args?: unknown[]) => {
    try {
      return (await client.readContract({
        address: addresses[role],
        abi,
        functionName,
        ...(args ? { args } : {}),
      } as never)) as Address;
    } catch {
      return null;
    }
  };
  /** Checks that `role`'s getter answers the address of `expected`. */
  const pointsAt = async (
    role: keyof ExchangeAddresses,
    getter: 'poolDeployer' | 'factoryAddress' | 'factory' | 'deployer' | 'WETH9',
    expected: keyof ExchangeAddresses,
  ): Promise<boolean> => {
    if (!hasCode.has(role)) return false;
    const answer = await read(role, getter);
    if (answer === null) {
      fail(role, `it does not answer ${getter}(), so it is not a ${EXCHANGE_LABELS[role]}`);
      return false;
    }
    if (!isAddressEqual(answer, addresses[expected])) {
      fail(role, `its ${getter}() is ${answer}, not the ${EXCHANGE_LABELS[expected]} ${addresses[expected]}`);
      return false;
    }
    return true;
  };

  const wired = await Promise.all([
    pointsAt('pancakeFactory', 'poolDeployer', 'poolDeployer'),
    pointsAt('poolDeployer', 'factoryAddress', 'pancakeFactory'),
    ...(['quoter', 'swapRouter', 'positionManager'] as const).flatMap((role) => [
      pointsAt(role, 'factory', 'pancakeFactory'),
      pointsAt(role, 'deployer', 'poolDeployer'),
      pointsAt(role, 'WETH9', 'wbnb'),
    ]),
  ]);
  if (wired.every(Boolean)) {
    checked.push('the factory, pool deployer, quoter, swap router and position manager point at one another and WBNB');
  }

  const factoryUsable = hasCode.has('pancakeFactory') && hasCode.has('poolDeployer') && wired[0] === true;
  if (!factoryUsable || !hasCode.has('wbnb') || !hasCode.has('usdt')) {
    unchecked.push(
      `the pool init code hash was not compared: the factory, its pool deployer, WBNB or USDT failed above`,
    );
  } else {
    const found: string[] = [];
    for (const fee of FEE_TIERS) {
      const pool = await read('pancakeFactory', 'getPool', [addresses.wbnb, addresses.usdt, fee]);
      if (pool === null || isAddressEqual(pool, zeroAddress)) continue;
      const ours = pancakePoolAddress(addresses.poolDeployer, addresses.wbnb, addresses.usdt, fee);
      if (isAddressEqual(pool, ours)) {
        found.push(`${formatFeeTier(fee)} at ${pool}`);
        continue;
      }
      fail(
        'pancakeFactory',
        `its WBNB/USDT ${formatFeeTier(fee)} pool is at ${pool}, but our pool init code hash ` +
          `${PANCAKE_POOL_INIT_CODE_HASH} puts it at ${ours}: the factory creates pools from other code, so our ` +
          'router would look for pools where there are none',
      );
    }
    if (found.length > 0) {
      checked.push(
        `the factory's pools are where our pool init code hash ${PANCAKE_POOL_INIT_CODE_HASH} puts them ` +
          `(WBNB/USDT ${found.join(', ')})`,
      );
    } else if (!problems.some((p) => p.role === 'pancakeFactory')) {
      unchecked.push(
        `the factory has no WBNB/USDT pool at any fee tier (${FEE_TIERS.map(formatFeeTier).join(', ')}), so its ` +
          `pool init code hash could not be compared with ours (${PANCAKE_POOL_INIT_CODE_HASH})`,
      );
    }
  }

  if (problems.length > 0) throw new ExchangeCheckError(chainId, problems);
  return { chainId, checked, unchecked };
}
