import type { ActivityEntry } from '../../../src-shared/appChannelTypes';
import type { RevertedTx } from '../wallet/revertedOnChain';
import type { ActionProgress } from '../wallet/sendBuild';

/**
 * The factory's error for a launch whose pool someone created and priced first, with their own liquidity in the way:
 * the token's address is spoilt, and a new build (a new salt, so a new address) is the way on.
 */
export const POOL_TAKEN = 'PoolOccupied';

/**
 * The launch's own transaction, when the send flow stopped because it was mined but reverted with PoolOccupied: what
 * the launch page answers with a launch at a new address. Null for any other outcome, an approval step's revert
 * included.
 */
export function poolTakenOf(progress: ActionProgress | null): RevertedTx | null {
  const reverted = progress?.stage === 'failed' ? progress.reverted : undefined;
  return reverted?.step === 'main' && reverted.name === POOL_TAKEN ? reverted : null;
}

/** Whether an activity entry is a launch that reverted because someone priced its pool first. */
export function isPoolTakenLaunch(entry: Pick<ActivityEntry, 'kind' | 'step' | 'status' | 'revert'>): boolean {
  return entry.kind === 'launch' && entry.step === 'main' && entry.status === 'reverted' && entry.revert === POOL_TAKEN;
}
