import type { Devnet } from './devnet/startDevnet';

/**
 * The chain's time in seconds, which deadlines and expiries written into transactions are measured against: the
 * latest block's timestamp, or the wall clock when that block is older (a quiet devnet's next block is made now). On
 * the devnet and a fork it is the devnet's own clock, which a rehearsal may have moved forward (evm_increaseTime).
 *
 * @example chainNow(chain.devnet, block.timestamp) + 1200n // a deadline 20 minutes out on the chain's clock
 */
export function chainNow(devnet: Pick<Devnet, 'clock'> | undefined, latestBlockTimestamp: bigint): bigint {
  const clock = devnet ? devnet.clock() : Math.floor(Date.now() / 1000);
  return latestBlockTimestamp > BigInt(clock) ? latestBlockTimestamp : BigInt(clock);
}

/**
 * The chain's clock in Unix ms for checks against times on the chain (a trade's deadline, trades' block times): the
 * wall clock, or the devnet's clock where a rehearsal moved it ahead.
 */
export function chainClockMs(devnet: Pick<Devnet, 'clock'> | undefined, wallMs: number = Date.now()): number {
  return devnet ? Math.max(devnet.clock() * 1000, wallMs) : wallMs;
}
