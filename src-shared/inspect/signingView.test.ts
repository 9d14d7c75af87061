import { maxUint160 } from 'viem';
import { describe, expect, it } from 'vitest';
import { decodeCall } from './decodeCall';
import { headlineOf, interestWarnings } from './signingView';
import { KNOWN, NOW, permit2ApproveTx, TOKEN, TOKENS, WALLET } from './testVectors';

describe('the Permit2 expiry at signing time', () => {
  it('heads the approval and words its warning with how far off the expiry is and its day, never ISO', () => {
    const tx = permit2ApproveTx(TOKEN, KNOWN.router, NOW + 30 * 86_400);
    const summary = decodeCall(tx, { known: KNOWN, tokens: TOKENS, now: NOW });
    expect(summary.call).toMatchObject({ kind: 'permit2-approve', amount: maxUint160 });
    const headline = headlineOf(summary, KNOWN, TOKENS);
    expect(headline).toMatch(/through Permit2, expiring in 30 days, \S/);
    const [warning] = interestWarnings(
      summary,
      { signer: WALLET, referrer: null, slippageBps: 100 },
      {},
      KNOWN,
      TOKENS,
    );
    expect(warning?.id).toBe('unlimited-approval');
    expect(warning?.message).toMatch(/until it expires in 30 days, \S/);
    for (const text of [headline, warning?.message ?? '']) expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
  });

  it('says an expiry beyond any date is so', () => {
    const summary = decodeCall(permit2ApproveTx(TOKEN, KNOWN.router, 2 ** 48 - 1), {
      known: KNOWN,
      tokens: TOKENS,
      now: NOW,
    });
    expect(headlineOf(summary, KNOWN, TOKENS)).toContain('expiring Unix time 281474976710655, beyond any date');
  });
});
