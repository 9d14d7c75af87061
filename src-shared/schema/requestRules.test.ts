import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { launchProblems } from './launch';
import { closedBody, nearestName } from './requestRules';
import { TradeBodySchema } from './trade';

const WALLET = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const TOKEN = '0x000000000022D473030F116dDEE9F6B43aC78BA3';

/** The first issue of a failed parse, as the route's validator reads it. */
function firstIssue(schema: z.ZodType, body: unknown) {
  const result = schema.safeParse(body);
  if (result.success) return undefined;
  const [issue] = result.error.issues;
  const params = (issue as { params?: Record<string, unknown> } | undefined)?.params ?? {};
  return { message: issue?.message, ...params } as { message?: string; fix?: string; [key: string]: unknown };
}

describe('nearestName', () => {
  it('finds the field a typo was meant to be: a letter missing, doubled, swapped, another case or snake_case', () => {
    const known = ['wallet', 'token', 'amount', 'exact', 'slippageBps', 'referrer'];
    expect(nearestName('slipageBps', known)).toBe('slippageBps');
    expect(nearestName('walet', known)).toBe('wallet');
    expect(nearestName('refferer', known)).toBe('referrer');
    expect(nearestName('amuont', known)).toBe('amount');
    expect(nearestName('SlippageBps', known)).toBe('slippageBps');
    expect(nearestName('slippage_bps', known)).toBe('slippageBps');
  });

  it('suggests nothing far off', () => {
    expect(nearestName('side', ['wallet', 'token', 'amount'])).toBeNull();
    expect(nearestName('deadline', ['wallet', 'token', 'amount', 'exact'])).toBeNull();
  });
});

describe('closedBody', () => {
  it('refuses an unknown field first, naming it, with the field it is nearest to as the fix', () => {
    const issue = firstIssue(TradeBodySchema, { walet: WALLET, token: TOKEN, amount: '1' });
    expect(issue).toMatchObject({ code: 'INVALID_BODY', field: 'walet', rank: -1 });
    expect(issue?.fix).toContain('wallet');
  });

  it('reads a body of known fields as before', () => {
    expect(TradeBodySchema.parse({ wallet: WALLET, token: TOKEN, amount: '1' })).toMatchObject({ slippageBps: 50 });
  });

  it("checks the fields of a body's object fields too", () => {
    const schema = closedBody(z.object({ budget: z.object({ perMinute: z.number() }).nullable().optional() }));
    expect(firstIssue(schema, { budget: { perMinut: 1 } })).toMatchObject({ field: 'budget.perMinut' });
    expect(schema.safeParse({ budget: null }).success).toBe(true);
  });
});

describe('a launch body', () => {
  it('refuses unknown fields at the top, in a split and in a shape range before any other rule', () => {
    const base = { wallet: WALLET, name: 'Cat', symbol: 'CAT', image: 'https://example.com/cat.png' };
    expect(launchProblems({ ...base, marketCap: '30' })[0]).toMatchObject({ code: 'INVALID_BODY', field: 'marketCap' });
    const [split] = launchProblems({
      ...base,
      marketCapPair: '1',
      firstBuy: '1',
      firstBuyTo: [{ wallet: WALLET, share: 100 }],
    });
    expect(split).toMatchObject({ code: 'INVALID_BODY', field: 'firstBuyTo[0].share' });
    const [range] = launchProblems({ ...base, marketCapPair: '1', shape: [{ from: 0, toPct: 100, bps: 10000 }] });
    expect(range).toMatchObject({ code: 'INVALID_BODY', field: 'shape[0].from' });
    expect(range?.fix).toContain('fromPct');
  });
});
