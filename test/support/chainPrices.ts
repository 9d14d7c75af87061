import {
  type Address,
  formatUnits,
  getAbiItem,
  type PublicClient,
  parseEventLogs,
  type TransactionReceipt,
} from 'viem';
import { TradeRouter } from '../../src-main/chain/generated/contracts';
import { PancakeV3Factory, PancakeV3Pool } from '../../src-main/chain/generated/vendor';

/*
 * What the chain itself says a test's figures should be, read straight from the pools and the receipts: the tests
 * hold the service's prices, dollar values and trade amounts to these, never to the service's own code.
 */

/** A price as an exact fraction: wei of one unit per wei of another. */
export interface Fraction {
  num: bigint;
  den: bigint;
}

/** A dollar stablecoin's own price: one to one. */
export const PAR: Fraction = { num: 1n, den: 1n };

/** Dollar wei per BNB wei: the WBNB/USDT pool's price, read from the pool itself. */
export async function bnbDollars(client: PublicClient, contracts: Record<string, Address>): Promise<Fraction> {
  const { pancakeFactory, wbnb, usdt } = contracts as Record<string, Address>;
  const pool = await client.readContract({
    address: pancakeFactory as Address,
    abi: PancakeV3Factory.abi,
    functionName: 'getPool',
    args: [wbnb as Address, usdt as Address, 500],
  });
  const [sqrt] = await client.readContract({ address: pool, abi: PancakeV3Pool.abi, functionName: 'slot0' });
  // USDT wei per WBNB wei: token1 per token0 is sqrt² / 2^192.
  return BigInt(wbnb as Address) < BigInt(usdt as Address)
    ? { num: sqrt * sqrt, den: 1n << 192n }
    : { num: 1n << 192n, den: sqrt * sqrt };
}

/** Pair wei per token wei at the token's pool price now. */
export async function tokenPrice(client: PublicClient, token: { token: Address; pool: Address }): Promise<Fraction> {
  const [sqrt] = await client.readContract({ address: token.pool, abi: PancakeV3Pool.abi, functionName: 'slot0' });
  const token0 = await client.readContract({ address: token.pool, abi: PancakeV3Pool.abi, functionName: 'token0' });
  return token0 === token.token ? { num: sqrt * sqrt, den: 1n << 192n } : { num: 1n << 192n, den: sqrt * sqrt };
}

/** Millionths of a dollar of `wei` at a chain of prices (dollar wei per wei at the end), rounded toward zero. */
export function dollarMicros(wei: bigint, ...prices: Fraction[]): bigint {
  const num = prices.reduce((product, price) => product * price.num, wei < 0n ? -wei : wei);
  const den = prices.reduce((product, price) => product * price.den, 10n ** 12n);
  return wei < 0n ? -(num / den) : num / den;
}

/** The same dollars written as the API writes them: a decimal of at most 6 places. */
export function dollarsOf(wei: bigint, ...prices: Fraction[]): string {
  return formatUnits(dollarMicros(wei, ...prices), 6);
}

/** The router's Trade events of a receipt. */
export const tradesIn = (receipt: TransactionReceipt) =>
  parseEventLogs({ abi: [getAbiItem({ abi: TradeRouter.abi, name: 'Trade' })], logs: receipt.logs }).map(
    (log) => log.args,
  );
