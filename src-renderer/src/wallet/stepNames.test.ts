import { encodeFunctionData, maxUint160, maxUint256, parseEther, zeroAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { allowanceTransferAbi, launchTokenAbi } from '../../../src-shared/generated/abis';
import { actionName, approvalName, stepLabel } from './stepNames';

const OWL = { symbol: 'OWL', decimals: 18 };
const SPENDER = '0x3333333333333333333333333333333333333333';
const erc20Approve = (amount: bigint) =>
  encodeFunctionData({ abi: launchTokenAbi, functionName: 'approve', args: [SPENDER, amount] });
const permit2Approve = (amount: bigint, expiration: number) =>
  encodeFunctionData({
    abi: allowanceTransferAbi,
    functionName: 'approve',
    args: [zeroAddress, SPENDER, amount, expiration],
  });

describe('approvalName', () => {
  it('names the unlimited Permit2 approval by what it lets move', () => {
    expect(approvalName('approve-permit2', erc20Approve(maxUint256), OWL)).toBe('Let Permit2 move your OWL');
  });

  it('says the router may spend all of it, through Permit2, until the end date', () => {
    const expiration = Math.floor(new Date(2030, 11, 25, 12).getTime() / 1000);
    const date = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric' }).format(
      expiration * 1000,
    );
    expect(approvalName('approve-router', permit2Approve(maxUint160, expiration), OWL)).toBe(
      `Let the router spend all your OWL through Permit2 until ${date}`,
    );
  });

  it('says an exact amount when the approval is for one', () => {
    expect(approvalName('approve-factory', erc20Approve(parseEther('1.5')), { symbol: 'USDT', decimals: 18 })).toBe(
      'Let the launch factory take 1.5 USDT for the first buy',
    );
  });

  it('falls back to the step id for a step it does not know', () => {
    expect(approvalName('something-else', null, OWL)).toBe('something-else');
  });
});

describe('stepLabel', () => {
  it('numbers a step of several and leaves a lone transaction as its name', () => {
    expect(stepLabel(3, 3, actionName('sell'))).toBe('Step 3 of 3 · The sale');
    expect(stepLabel(1, 1, actionName('buy'))).toBe('The buy');
  });
});
