import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CostTrade, costBasis } from './costBasis';

const buy = (tokenAmount: bigint, pairAmount: bigint): CostTrade => ({
  isBuy: true,
  tokenAmount,
  pairAmount,
  fee: pairAmount / 100n,
});
const sell = (tokenAmount: bigint, pairAmount: bigint, fee: bigint): CostTrade => ({
  isBuy: false,
  tokenAmount,
  pairAmount,
  fee,
});

describe('costBasis', () => {
  it('averages two buys and takes a partial sale out at that average', () => {
    const basis = costBasis([buy(100n, 10n), buy(300n, 50n), sell(100n, 20n, 1n)], 300n);
    // 400 tokens cost 60: 100 sold take out 15, the sale got 19 after its fee.
    expect(basis).toEqual({
      balance: 300n,
      traded: 300n,
      untracked: 0n,
      cost: 45n,
      realized: 4n,
      buys: 2,
      sells: 1,
      spent: 60n,
      received: 19n,
    });
  });

  it('rounds the cost of a sale down and keeps the remainder with what is left', () => {
    const basis = costBasis([buy(3n, 10n), sell(1n, 5n, 0n)], 2n);
    expect([basis.cost, basis.realized]).toEqual([7n, 2n]);
  });

  it('holds tokens that came by another way at no cost', () => {
    const basis = costBasis([buy(100n, 10n)], 150n);
    expect([basis.cost, basis.untracked, basis.realized]).toEqual([10n, 50n, 0n]);
  });

  it('lets tokens that left without a sale take their share of the cost, realizing nothing', () => {
    const basis = costBasis([buy(100n, 10n)], 40n);
    expect([basis.cost, basis.untracked, basis.realized]).toEqual([4n, -60n, 0n]);
  });

  it('counts the part of a sale beyond what the buys left as profit whole, at no cost', () => {
    const basis = costBasis([buy(10n, 7n), sell(50n, 9n, 1n)], 0n);
    expect([basis.cost, basis.traded, basis.realized]).toEqual([0n, 0n, 1n]);
  });

  it('loses and makes no wei: what was spent is what is still held plus what the sales took out', () => {
    const amount = fc.bigInt({ min: 1n, max: 10n ** 30n });
    const trade = fc.record({ isBuy: fc.boolean(), tokenAmount: amount, pairAmount: amount, fee: fc.constant(0n) });
    fc.assert(
      fc.property(fc.array(trade, { maxLength: 30 }), (trades) => {
        const basis = costBasis(trades, 10n ** 40n);
        // With the whole balance still held, realized = received - (spent - cost) exactly.
        expect(basis.realized).toBe(basis.received - (basis.spent - basis.cost));
        expect(basis.cost >= 0n).toBe(true);
      }),
    );
  });
});
