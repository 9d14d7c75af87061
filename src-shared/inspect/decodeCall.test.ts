import { type Address, encodeFunctionData, getAddress, parseEther, zeroAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { formatLocalTime } from '../format/times';
import { referralVaultAbi } from '../generated/abis';
import { decodeCall } from './decodeCall';
import {
  CHAIN_ID,
  claimTx,
  collectTx,
  erc20ApproveTx,
  KNOWN,
  launchParams,
  launchTx,
  NOW,
  OTHER,
  permit2ApproveTx,
  REFERRER,
  TOKEN,
  TOKENS,
  tradeParams,
  tradeTx,
  USDT,
  WALLET,
} from './testVectors';

const ROOT = `0x${'ab'.repeat(32)}` as const;
const ctx = { known: KNOWN, now: NOW, tokens: TOKENS, rates: { siteFeeBps: 100, referrerBps: 20 } };
const argsOf = (summary: ReturnType<typeof decodeCall>) =>
  Object.fromEntries(summary.args.map((a) => [a.name, { display: a.display, raw: a.raw }]));

describe('decodeCall', () => {
  it('decodes each of the four trades, naming the currency each amount is counted in', () => {
    const params = tradeParams();
    const cases = [
      ['buyExactIn', 'pays exactly 0.5 BNB', 'receives at least 1000 MCAT'],
      ['buyExactOut', 'receives exactly 0.5 MCAT', 'pays at most 1000 BNB'],
      ['sellExactIn', 'pays exactly 0.5 MCAT', 'receives at least 1000 BNB'],
      ['sellExactOut', 'receives exactly 0.5 BNB', 'pays at most 1000 MCAT'],
    ] as const;
    for (const [fn, amount, limit] of cases) {
      const summary = decodeCall(tradeTx(fn, params, 0n), ctx);
      expect(summary.contract).toBe('TradeRouter');
      expect(summary.function).toBe(fn);
      expect(summary.call).toEqual({ kind: 'trade', function: fn, params });
      const args = argsOf(summary);
      expect(Object.keys(args)).toEqual(['token', 'pair', 'fee', 'amount', 'limit', 'referrer', 'deadline']);
      expect(args.amount?.display).toBe(amount);
      expect(args.limit?.display).toBe(limit);
      expect(args.amount?.raw).toBe(parseEther('0.5').toString());
      expect(args.fee?.display).toBe('1% pool fee tier');
      expect(args.deadline?.display).toBe(`in 20 minutes, ${formatLocalTime((NOW + 1200) * 1000)}`);
      expect(summary.deadline).toBe(NOW + 1200);
      expect(summary.referrer).toBe(REFERRER);
      expect(summary.fees).toEqual({
        poolFeeTier: 10000,
        siteFeeBps: 100,
        referrerBps: 20,
        burnBps: null,
        launchFeeWei: null,
      });
      expect(summary.gas).toBe('200000');
    }
  });

  it('shows no referrer as none with a 0 cut, and an expired deadline as expired', () => {
    const summary = decodeCall(
      tradeTx('buyExactIn', tradeParams({ referrer: zeroAddress, deadline: BigInt(NOW - 180) }), 0n),
      ctx,
    );
    expect(argsOf(summary).referrer?.display).toBe('none');
    expect(summary.referrer).toBeNull();
    expect(summary.fees.referrerBps).toBe(0);
    expect(argsOf(summary).deadline?.display).toMatch(/^expired 3 minutes ago, /);
  });

  it('shows amounts of a token of unknown decimals in raw units, with a note', () => {
    const stranger = getAddress('0x00000000000000000000000000000000000c0ffe');
    const summary = decodeCall(tradeTx('sellExactIn', tradeParams({ token: stranger }), 0n), ctx);
    expect(argsOf(summary).amount?.display).toBe(
      `pays exactly ${parseEther('0.5')} raw units (token decimals unknown)`,
    );
    expect(summary.notes.some((n) => n.includes(stranger))).toBe(true);
  });

  it('decodes a launch with its struct and arrays flattened into named fields', () => {
    const params = launchParams({
      firstBuyTo: [
        { wallet: OTHER, bps: 6000 },
        { wallet: '0x000000000000000000000000000000000000dEaD', bps: 4000 },
      ],
      burnBps: 2550,
    });
    const summary = decodeCall(launchTx(params, parseEther('1.6')), ctx);
    expect(summary.contract).toBe('LaunchFactory');
    expect(summary.function).toBe('launch');
    expect(summary.call).toEqual({ kind: 'launch', params });
    const args = argsOf(summary);
    expect(args.name?.display).toBe('"Moon Cat"');
    expect(args.supply?.display).toBe('1000000000 MCAT');
    expect(args.firstBuy?.display).toBe('1.5 BNB');
    expect(args.minTokens?.display).toBe('at least 1000000 MCAT');
    expect(args['ranges[0].tickLower']?.raw).toBe('-207200');
    expect(args['ranges[0].bps']?.display).toBe('100% of the supply');
    expect(args['firstBuyTo[0].wallet']?.raw).toBe(OTHER);
    expect(args['firstBuyTo[1].wallet']?.display).toMatch(/dead address/);
    expect(args['firstBuyTo[1].bps']?.display).toBe('40% of the first buy');
    expect(args.royaltyTo?.display).toBe('the creator (the sending wallet)');
    expect(args.burnBps?.display).toBe('25.5% of the royalty bought back and burned');
    expect(summary.fees).toMatchObject({
      poolFeeTier: 10000,
      burnBps: 2550,
      launchFeeWei: parseEther('0.1').toString(),
    });
    expect(summary.deadline).toBeNull();
  });

  it("decodes a collect of a launch's fees on the factory, naming the token and who gains", () => {
    const summary = decodeCall(collectTx(TOKEN), ctx);
    expect(summary).toMatchObject({ contract: 'LaunchFactory', function: 'collect', deadline: null, referrer: null });
    expect(summary.call).toEqual({ kind: 'collect', token: TOKEN });
    expect(argsOf(summary).token).toEqual({ display: `${TOKEN} (MCAT), whose fees are collected`, raw: TOKEN });
    expect(summary.value.wei).toBe('0');
    expect(summary.notes.join(' ')).toMatch(
      /royalty to the launch's royalty recipient or creator, never to the sender/,
    );
    // The same call sent anywhere but our factory is not read as a collect.
    const elsewhere = decodeCall({ ...collectTx(TOKEN), to: OTHER }, ctx);
    expect(elsewhere).toMatchObject({ contract: 'unknown', function: null, call: { kind: 'undecoded' } });
  });

  it('decodes a referral claim, a Permit2 approval and an ERC-20 approval', () => {
    const claim = decodeCall(
      claimTx(WALLET, [{ week: 2950n, amount: parseEther('0.25'), proof: [`0x${'11'.repeat(32)}`] }]),
      ctx,
    );
    expect(claim).toMatchObject({ contract: 'ReferralVault', function: 'claim', referrer: WALLET });
    expect(argsOf(claim)['claims[0].amount']?.display).toBe('0.25 BNB');
    expect(argsOf(claim)['claims[0].proof']?.display).toMatch(/^1 item/);

    const permit = decodeCall(permit2ApproveTx(USDT, KNOWN.router, NOW + 30 * 86_400), ctx);
    expect(permit).toMatchObject({ contract: 'Permit2', function: 'approve' });
    expect(permit.call).toMatchObject({ kind: 'permit2-approve', token: USDT, spender: KNOWN.router });
    expect(argsOf(permit).spender?.display).toBe(`${KNOWN.router} (TradeRouter)`);
    expect(argsOf(permit).amount?.display).toBe('unlimited USDT');
    expect(argsOf(permit).expiration?.display).toMatch(/^in 30 days, /);

    const approve = decodeCall(erc20ApproveTx(TOKEN, KNOWN.permit2), ctx);
    expect(approve).toMatchObject({ contract: 'ERC-20', contractLabel: 'ERC-20 MCAT', function: 'approve' });
    expect(approve.call).toEqual({
      kind: 'erc20-approve',
      token: TOKEN,
      spender: KNOWN.permit2,
      amount: 2n ** 256n - 1n,
    });
    expect(argsOf(approve).spender?.display).toBe(`${KNOWN.permit2} (Permit2)`);
  });

  it('names what it cannot decode instead of throwing', () => {
    const unknownTo = decodeCall({ chainId: CHAIN_ID, to: OTHER, data: '0xdeadbeef', value: '0' }, ctx);
    expect(unknownTo).toMatchObject({ contract: 'unknown', function: null, call: { kind: 'undecoded' } });
    const garbage = decodeCall({ chainId: CHAIN_ID, to: KNOWN.router, data: '0x12345678aa', value: '0' }, ctx);
    expect(garbage).toMatchObject({ contract: 'TradeRouter', function: null, call: { kind: 'undecoded' } });
    const truncated = tradeTx('buyExactIn', tradeParams(), 0n);
    const short = decodeCall({ ...truncated, data: truncated.data.slice(0, 74) as `0x${string}` }, ctx);
    expect(short).toMatchObject({ function: null, call: { kind: 'undecoded' } });
    const empty = decodeCall({ chainId: CHAIN_ID, to: KNOWN.factory, data: '0x', value: '0' }, ctx);
    expect(empty.function).toBeNull();
  });

  it('decodes a function of ours the service never builds as another call', () => {
    const data = encodeFunctionData({ abi: referralVaultAbi, functionName: 'postRoot', args: [2950n, ROOT, 5n] });
    const summary = decodeCall({ chainId: CHAIN_ID, to: KNOWN.referrals as Address, data, value: '0' }, ctx);
    expect(summary).toMatchObject({ function: 'postRoot', call: { kind: 'other', function: 'postRoot' } });
    expect(argsOf(summary).week?.raw).toBe('2950');
  });
});
