import { encodeFunctionData, parseEther, zeroAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../../src-shared/appChannelTypes';
import { tradeRouterAbi } from '../../../src-shared/generated/abis';
import { groupActivity, tradeMoveOf } from './activityActions';

const TOKEN = '0x1111111111111111111111111111111111111111';
const PAIR = '0x2222222222222222222222222222222222222222';

function entry(id: string, groupId: string, step: string, createdAt: number): ActivityEntry {
  return {
    id,
    groupId,
    step,
    kind: step === 'main' ? 'sell' : 'approve',
    title: id,
    wallet: zeroAddress,
    chainId: 31337,
    to: null,
    data: null,
    value: null,
    message: null,
    nonce: null,
    hash: null,
    status: 'confirmed',
    error: null,
    revert: null,
    block: null,
    gasUsed: null,
    sentPrivately: false,
    feeWei: null,
    moved: null,
    createdAt,
    updatedAt: createdAt,
  };
}

describe('groupActivity', () => {
  it('folds an action’s approvals under its own entry, oldest step first, actions newest first', () => {
    const list = [
      entry('sell', 'g2', 'main', 30),
      entry('router', 'g2', 'approve-router', 20),
      entry('permit2', 'g2', 'approve-permit2', 10),
      entry('buy', 'g1', 'main', 5),
    ];
    const actions = groupActivity(list);
    expect(actions.map((a) => a.head.id)).toEqual(['sell', 'buy']);
    expect(actions[0]?.steps.map((s) => s.id)).toEqual(['permit2', 'router']);
  });

  it('heads an action stopped in its approvals with its latest step', () => {
    const actions = groupActivity([
      entry('router', 'g', 'approve-router', 20),
      entry('permit2', 'g', 'approve-permit2', 10),
    ]);
    expect(actions[0]?.head.id).toBe('router');
    expect(actions[0]?.steps.map((s) => s.id)).toEqual(['permit2']);
  });
});

describe('tradeMoveOf', () => {
  const params = {
    token: TOKEN,
    pair: PAIR,
    fee: 10_000,
    amount: parseEther('1'),
    limit: 5n,
    referrer: zeroAddress,
    deadline: 1n,
  } as const;
  it('reads an exact-in buy as paying the amount for at least the limit', () => {
    const data = encodeFunctionData({ abi: tradeRouterAbi, functionName: 'buyExactIn', args: [params] });
    expect(tradeMoveOf(data)).toEqual({
      side: 'buy',
      token: TOKEN,
      pair: PAIR,
      pay: parseEther('1'),
      receive: 5n,
      bound: 'minReceive',
    });
  });
  it('reads an exact-out sell as paying at most the limit for the amount', () => {
    const data = encodeFunctionData({ abi: tradeRouterAbi, functionName: 'sellExactOut', args: [params] });
    expect(tradeMoveOf(data)).toMatchObject({ side: 'sell', pay: 5n, receive: parseEther('1'), bound: 'maxPay' });
  });
  it('is null for data that is no trade', () => {
    expect(tradeMoveOf('0x1234')).toBeNull();
    expect(tradeMoveOf(null)).toBeNull();
  });
});
