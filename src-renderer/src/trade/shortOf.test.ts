import { describe, expect, it } from 'vitest';
import type { Balances, TokenInfo } from '../api/tokens';
import { shortOf } from './shortOf';

const token = { symbol: 'MCAT' } as TokenInfo;
const GAS = 2n;

function balances(bnb: bigint, tokens: bigint, pair: { wei: bigint; native: boolean; symbol?: string }): Balances {
  return {
    bnbWei: bnb.toString(),
    token: { wei: tokens.toString() },
    pair: { wei: pair.wei.toString(), native: pair.native, symbol: pair.symbol ?? 'BNB' },
  } as Balances;
}

describe('shortOf', () => {
  it('cannot tell before the balances or the amount are in', () => {
    expect(shortOf(null, token, 'buy', 1n, GAS)).toBeNull();
    expect(shortOf(balances(10n, 0n, { wei: 10n, native: true }), token, 'buy', null, GAS)).toBeNull();
  });
  it('counts the gas reserve into a native buy', () => {
    const held = balances(10n, 0n, { wei: 10n, native: true });
    expect(shortOf(held, token, 'buy', 8n, GAS)).toBeNull();
    expect(shortOf(held, token, 'buy', 9n, GAS)).toBe('BNB');
  });
  it('names the pair a token-paid buy lacks, then BNB for gas', () => {
    expect(shortOf(balances(10n, 0n, { wei: 5n, native: false, symbol: 'USDT' }), token, 'buy', 6n, GAS)).toBe('USDT');
    expect(shortOf(balances(1n, 0n, { wei: 5n, native: false, symbol: 'USDT' }), token, 'buy', 5n, GAS)).toBe('BNB');
  });
  it('names the token a sell lacks, then BNB for gas', () => {
    expect(shortOf(balances(10n, 5n, { wei: 0n, native: true }), token, 'sell', 6n, GAS)).toBe('MCAT');
    expect(shortOf(balances(1n, 5n, { wei: 0n, native: true }), token, 'sell', 5n, GAS)).toBe('BNB');
    expect(shortOf(balances(2n, 5n, { wei: 0n, native: true }), token, 'sell', 5n, GAS)).toBeNull();
  });
});
