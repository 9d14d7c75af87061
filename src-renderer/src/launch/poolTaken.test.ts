import { describe, expect, it } from 'vitest';
import type { ActionProgress } from '../wallet/sendBuild';
import { isPoolTakenLaunch, poolTakenOf } from './poolTaken';

const failed = (reverted: ActionProgress['reverted']): ActionProgress => ({
  stage: 'failed',
  step: 'main',
  index: 1,
  total: 1,
  error: { code: 'REVERTED', message: 'm' },
  ...(reverted ? { reverted } : {}),
});

describe('poolTakenOf', () => {
  it("is the launch's own transaction reverted with PoolOccupied, and nothing else", () => {
    const taken = { step: 'main', name: 'PoolOccupied', feeWei: '21000' };
    expect(poolTakenOf(failed(taken))).toEqual(taken);
    // Told apart by the error's name, never by the words.
    expect(poolTakenOf(failed({ step: 'main', name: 'LaunchesPaused', feeWei: null }))).toBeNull();
    expect(poolTakenOf(failed({ step: 'main', name: null, feeWei: null }))).toBeNull();
    // An approval step that reverted is not the launch.
    expect(poolTakenOf(failed({ step: 'approve-permit2', name: 'PoolOccupied', feeWei: null }))).toBeNull();
    expect(poolTakenOf(failed(undefined))).toBeNull();
    expect(poolTakenOf({ ...failed(taken), stage: 'building' })).toBeNull();
    expect(poolTakenOf(null)).toBeNull();
  });
});

describe('isPoolTakenLaunch', () => {
  it('is a reverted launch with PoolOccupied as its revert', () => {
    const entry = { kind: 'launch', step: 'main', status: 'reverted', revert: 'PoolOccupied' } as const;
    expect(isPoolTakenLaunch(entry)).toBe(true);
    expect(isPoolTakenLaunch({ ...entry, revert: null })).toBe(false);
    expect(isPoolTakenLaunch({ ...entry, kind: 'buy' })).toBe(false);
    expect(isPoolTakenLaunch({ ...entry, status: 'confirmed' })).toBe(false);
    expect(isPoolTakenLaunch({ ...entry, step: 'approve-permit2' })).toBe(false);
  });
});
