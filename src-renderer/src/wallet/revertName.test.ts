import { encodeErrorResult, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { launchFactoryAbi, tradeRouterAbi } from '../../../src-shared/generated/abis';
import { revertDataOf, revertNameOf } from './revertName';

const POOL = '0x1111111111111111111111111111111111111111';
const poolOccupied = encodeErrorResult({ abi: launchFactoryAbi, errorName: 'PoolOccupied', args: [POOL] });
const limitNotMet = encodeErrorResult({ abi: tradeRouterAbi, errorName: 'LimitNotMet', args: [1n, 2n] });

describe('revertNameOf', () => {
  it("names the contracts' own errors and a require's message, and nothing else", () => {
    expect(revertNameOf(poolOccupied)).toBe('PoolOccupied');
    expect(revertNameOf(limitNotMet)).toBe('LimitNotMet');
    // Error(string), as a require with a message reverts.
    expect(revertNameOf(`0x08c379a0${'0'.repeat(62)}20${'0'.repeat(64)}`)).toBe('Error');
    expect(revertNameOf('0x')).toBeNull();
    expect(revertNameOf('0xdeadbeef')).toBeNull();
  });
});

describe('revertDataOf', () => {
  it('finds the data where wallets put it, however deep they wrap the node', () => {
    expect(revertDataOf({ code: 3, message: 'execution reverted', data: poolOccupied })).toBe(poolOccupied);
    expect(revertDataOf({ code: -32603, data: { code: 3, data: poolOccupied } })).toBe(poolOccupied);
    expect(revertDataOf({ code: -32603, data: { originalError: { code: 3, data: poolOccupied } } })).toBe(poolOccupied);
    expect(revertDataOf({ cause: { error: { data: poolOccupied } } })).toBe(poolOccupied);
  });

  it('answers nothing for a refusal without revert data', () => {
    expect(revertDataOf(new Error('User rejected'))).toBeUndefined();
    expect(revertDataOf({ code: -32000, message: 'header not found', data: 'not hex' })).toBeUndefined();
    expect(revertDataOf(null)).toBeUndefined();
    expect(revertDataOf('0xdead' as Hex)).toBeUndefined();
    // A refusal that refers to itself is not searched for ever.
    const loop: Record<string, unknown> = {};
    loop.cause = loop;
    expect(revertDataOf(loop)).toBeUndefined();
  });
});
