import { describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import { SignedBodySchema } from '../../src-shared/schema/auth';
import { LaunchesQuerySchema } from '../../src-shared/schema/launches';
import { QuoteQuerySchema } from '../../src-shared/schema/quote';
import { TradeBodySchema } from '../../src-shared/schema/trade';
import { readWith } from './validationHook';

const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

/** The spec's error a request schema answers for `input`, as its route sends it. */
function refusal(schema: ZodType, input: unknown) {
  try {
    readWith(schema, input);
  } catch (error) {
    return (error as { toBody(): { error: Record<string, unknown> } }).toBody().error;
  }
  throw new Error('the input was read without an error');
}

describe("GET /quote's one schema", () => {
  it('reads a query into its terms: side and exact as their enums, slippage as a number, defaults filled', () => {
    expect(readWith(QuoteQuerySchema, { token: TOKEN.toLowerCase(), side: 'sell', amount: '1.5' })).toEqual({
      token: TOKEN,
      side: 'sell',
      amount: '1.5',
      exact: 'in',
      slippageBps: 50,
    });
    expect(
      readWith(QuoteQuerySchema, { token: TOKEN, side: 'buy', amount: '1', exact: 'out', slippageBps: '050' }),
    ).toMatchObject({ exact: 'out', slippageBps: 50 });
  });

  it('refuses a side that is not buy or sell with INVALID_SIDE', () => {
    expect(refusal(QuoteQuerySchema, { token: TOKEN, side: 'hold', amount: '1' })).toMatchObject({
      code: 'INVALID_SIDE',
      field: 'side',
      message: 'side is not valid: side must be buy or sell',
    });
  });

  it('answers in the order the checks ran before: fields present, then side, exact and slippage, then token, then amount', () => {
    // A missing field first, whatever else is wrong.
    expect(refusal(QuoteQuerySchema, { token: TOKEN, side: 'hold', exact: 'both' })).toMatchObject({
      code: 'INVALID_AMOUNT',
      message: 'amount is missing: Invalid input: expected string, received undefined',
    });
    expect(refusal(QuoteQuerySchema, { token: 'nope', side: 'hold', amount: 'x' })).toMatchObject({
      code: 'INVALID_SIDE',
    });
    expect(refusal(QuoteQuerySchema, { token: 'nope', side: 'buy', amount: 'x', slippageBps: '0' })).toMatchObject({
      code: 'INVALID_SLIPPAGE',
      message: 'slippageBps is not valid: slippageBps must be a whole number from 1 to 5000',
    });
    expect(refusal(QuoteQuerySchema, { token: 'nope', side: 'buy', amount: 'x' })).toMatchObject({
      code: 'INVALID_ADDRESS',
      field: 'token',
      message: 'token is not an address: expected 0x followed by 40 hex digits',
    });
    expect(refusal(QuoteQuerySchema, { token: TOKEN, side: 'buy', amount: '-1' })).toMatchObject({
      code: 'INVALID_AMOUNT',
      field: 'amount',
      message: 'amount must be a positive decimal string such as "0.05", not "-1"',
    });
  });

  it('answers a field sent twice (a list) as the field it is', () => {
    expect(refusal(QuoteQuerySchema, { token: TOKEN, side: ['buy', 'sell'], amount: '1' })).toMatchObject({
      code: 'INVALID_SIDE',
      message: 'side is not valid: Invalid input: expected string, received array',
    });
  });
});

describe('body schemas', () => {
  it('refuse a missing or mistyped field with the words the service used', () => {
    expect(refusal(TradeBodySchema, { token: TOKEN, amount: '1' })).toEqual({
      code: 'INVALID_ADDRESS',
      field: 'wallet',
      message: 'wallet is not an address: expected 0x followed by 40 hex digits',
      fix: 'Send 0x followed by 40 hexadecimal digits.',
    });
    expect(refusal(TradeBodySchema, { wallet: WALLET, token: TOKEN, amount: 5 })).toMatchObject({
      code: 'INVALID_AMOUNT',
      message: 'amount must be a positive decimal string such as "0.05", not a number',
    });
    expect(refusal(TradeBodySchema, { wallet: WALLET, token: TOKEN, amount: '1', exact: 'both' })).toMatchObject({
      code: 'INVALID_EXACT',
      message: 'exact is not valid: exact must be in or out',
    });
    expect(refusal(SignedBodySchema, { nonce: '', signature: '0x12' })).toMatchObject({
      code: 'INVALID_SIGNATURE',
      field: 'nonce',
    });
    expect(refusal(SignedBodySchema, { nonce: 'n', signature: '0x12' })).toMatchObject({
      code: 'INVALID_SIGNATURE',
      field: 'signature',
      message: 'signature is not a 65-byte signature (0x followed by 130 hex digits)',
    });
  });

  it('refuse a field they do not take, naming it, before the rules its absence breaks', () => {
    const mistyped = refusal(TradeBodySchema, { wallet: WALLET, token: TOKEN, amount: '1', slipageBps: 100 });
    expect(mistyped).toMatchObject({ code: 'INVALID_BODY', field: 'slipageBps' });
    expect(mistyped.fix).toBe('Did you mean slippageBps? Send it as slippageBps, or leave slipageBps out.');
    expect(refusal(SignedBodySchema, { nonce: 'n', sig: '0x12' })).toMatchObject({
      code: 'INVALID_BODY',
      field: 'sig',
    });
    expect(refusal(TradeBodySchema, { wallet: WALLET, token: TOKEN, amount: '1', side: 'buy' }).fix).toBe(
      'Leave side out; send only the fields the request takes.',
    );
  });

  it('keep null (nobody) apart from a referrer left out (the key wallet may be offered)', () => {
    const body = { wallet: WALLET, token: TOKEN, amount: '1' };
    expect(readWith(TradeBodySchema, { ...body, referrer: null }).referrer).toBeNull();
    expect(readWith(TradeBodySchema, body).referrer).toBeUndefined();
    expect(readWith(TradeBodySchema, { ...body, slippageBps: '75' }).slippageBps).toBe(75);
  });
});

describe("GET /launches' query", () => {
  it('reads the cursor and the page size, with the fix for a page size out of range', () => {
    expect(readWith(LaunchesQuerySchema, {})).toEqual({ after: undefined, limit: 50 });
    expect(readWith(LaunchesQuerySchema, { after: '12', limit: '3' })).toEqual({ after: 12, limit: 3 });
    expect(refusal(LaunchesQuerySchema, { after: 'x' })).toMatchObject({ code: 'INVALID_CURSOR', field: 'after' });
    expect(refusal(LaunchesQuerySchema, { limit: '201' })).toEqual({
      code: 'INVALID_BODY',
      field: 'limit',
      message: 'limit must be a whole number from 1 to 200, not "201"',
      fix: 'Send limit from 1 to 200, or leave it out for 50.',
    });
  });
});
