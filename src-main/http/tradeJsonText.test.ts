import fc from 'fast-check';
import { expect, it } from 'vitest';
import type { Quote } from '../services/quoteService';
import type { TokenFacts } from '../services/tokenRegistry';
import { tradeJson } from './tradeInput';
import { tradeJsonText } from './tradeJsonText';

const address = fc.stringMatching(/^0x[0-9a-fA-F]{40}$/) as fc.Arbitrary<`0x${string}`>;
// Symbols are whatever a creator typed: quotes, backslashes, control characters, emoji, lone surrogates.
const symbol = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('"', '\\', '\u2028', '\ud800'));
const wei = fc.bigInt({ min: 0n, max: 2n ** 256n - 1n });
const decimals = fc.integer({ min: 0, max: 36 });

const token = fc.record({
  address,
  name: fc.string(),
  symbol,
  decimals,
  creator: address,
  pool: address,
  feeTier: fc.constantFrom(100, 500, 2500, 10000),
  tickSpacing: fc.constantFrom(1, 10, 50, 200),
  pair: fc.record({ address, decimals, symbol }),
  quoteIsBnb: fc.boolean(),
  tokenIs0: fc.boolean(),
}) as fc.Arbitrary<TokenFacts>;

const quote = fc
  .record({
    token,
    side: fc.constantFrom('buy', 'sell'),
    exact: fc.constantFrom('in', 'out'),
    amount: wei,
    slippageBps: fc.integer({ min: 1, max: 5000 }),
    pay: wei,
    receive: wei,
    limit: wei,
    limitKind: fc.constantFrom('minReceive', 'maxPay'),
    siteFee: wei,
    siteFeeBps: fc.integer({ min: 0, max: 10_000 }),
    referrerBps: fc.integer({ min: 0, max: 10_000 }),
    priceImpactPct: fc.oneof(fc.double(), fc.constantFrom(0, -0, Number.NaN, Number.POSITIVE_INFINITY, 1e21, 5e-7)),
    midSqrtPriceX96: fc.bigInt({ min: 0n, max: 2n ** 160n - 1n }),
    // Unpriced pairs, USDT at par, and BNB rates as the dollar pool gives them (X192 ratios), zero included.
    pairUsd: fc.oneof(
      fc.constant(null),
      fc.record({ usdWeiPer: fc.constant(10n ** 18n), pairWeiPer: fc.constant(10n ** 18n) }),
      fc.record({
        usdWeiPer: fc.bigInt({ min: 0n, max: 2n ** 320n }),
        pairWeiPer: fc.bigInt({ min: 0n, max: 2n ** 320n }),
      }),
    ),
  })
  .map(
    (q): Quote => ({
      ...q,
      payCurrency: q.side === 'buy' ? q.token.pair : q.token,
      receiveCurrency: q.side === 'buy' ? q.token : q.token.pair,
    }),
  );

it('writes the same bytes as JSON.stringify(tradeJson(quote)), whatever the symbols and figures', () => {
  fc.assert(
    fc.property(quote, (q) => {
      expect(tradeJsonText(q)).toBe(JSON.stringify(tradeJson(q)));
      // Twice: the second time the token's part comes from what the first wrote.
      expect(tradeJsonText(q)).toBe(JSON.stringify(tradeJson(q)));
    }),
    { numRuns: 2000 },
  );
});
