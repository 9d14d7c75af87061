import { type Address, type Hex, parseEther, zeroAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import type { LaunchParams, TradeFunction, TradeParams } from '../../src-shared/inspect/decodeCall';
import {
  KNOWN,
  launchParams,
  launchTx,
  OTHER,
  permit2ApproveTx,
  TOKEN,
  tradeParams,
  tradeTx,
  USDT,
  WALLET,
} from '../../src-shared/inspect/testVectors';
import type { UnsignedTx } from '../../src-shared/schema/unsignedTx';
import { ApiError } from '../core/errors';
import { checkFulfilment, type FulfilledRequest, type SentTransaction } from './intentFulfilment';

const HASH: Hex = `0x${'12'.repeat(32)}`;
const ANNOUNCED: Address = '0x00000000000000000000000000000000000A11ED';

/** Where the factory would put a launch: the announced token for the built parameters, another for any other salt. */
const context = {
  known: KNOWN,
  launchedToken: async (_creator: Address, params: LaunchParams): Promise<Address> =>
    params.salt === launchParams().salt ? ANNOUNCED : OTHER,
};

const sentAs = (tx: UnsignedTx, from: Address = WALLET): SentTransaction => ({
  hash: HASH,
  from,
  to: tx.to,
  input: tx.data,
  value: BigInt(tx.value),
});

const buyRequest = (fn: TradeFunction = 'buyExactIn', params: TradeParams = tradeParams()): FulfilledRequest => ({
  kind: fn.startsWith('buy') ? 'prepare_buy' : 'prepare_sell',
  wallet: WALLET,
  build: { tx: tradeTx(fn, params, 0n) },
});

/** The code the check throws for this transaction, or 'ok'. */
async function verdict(request: FulfilledRequest, tx: SentTransaction): Promise<string> {
  try {
    await checkFulfilment(request, tx, context);
    return 'ok';
  } catch (error) {
    // Ours but not the request's own: the same code as a transaction that is no trade, with what differs.
    if (error instanceof ApiError) return (error.detail as { differs?: string })?.differs ? 'differs' : error.code;
    throw error;
  }
}

describe('checkFulfilment: a trade', () => {
  it('accepts the trade built for the request, and one with a stricter limit or another deadline', async () => {
    const request = buyRequest();
    expect(await verdict(request, sentAs(tradeTx('buyExactIn', tradeParams(), 0n)))).toBe('ok');
    const stricter = tradeParams({ limit: tradeParams().limit + 1n, deadline: 1n });
    expect(await verdict(request, sentAs(tradeTx('buyExactIn', stricter, 0n)))).toBe('ok');
  });

  it('refuses another sender, another contract, or a call of the router that is no trade', async () => {
    const request = buyRequest();
    expect(await verdict(request, sentAs(tradeTx('buyExactIn', tradeParams(), 0n), OTHER))).toBe('WRONG_SENDER');
    expect(await verdict(request, sentAs(permit2ApproveTx(TOKEN, KNOWN.router, 1)))).toBe('WRONG_CONTRACT');
    const toRouter = { ...permit2ApproveTx(TOKEN, KNOWN.router, 1), to: KNOWN.router };
    expect(await verdict(request, sentAs(toRouter))).toBe('WRONG_CONTRACT');
    const launch = launchTx(launchParams(), 0n);
    expect(await verdict(request, sentAs(launch))).toBe('WRONG_CONTRACT');
  });

  it('refuses another side, exact side, token, pair, tier, amount, referrer or a looser limit', async () => {
    const request = buyRequest();
    const other: [TradeFunction, Partial<TradeParams>][] = [
      ['sellExactIn', {}],
      ['buyExactOut', {}],
      ['buyExactIn', { token: USDT }],
      ['buyExactIn', { pair: USDT }],
      ['buyExactIn', { fee: 2500 }],
      ['buyExactIn', { amount: tradeParams().amount + 1n }],
      ['buyExactIn', { referrer: zeroAddress }],
      ['buyExactIn', { limit: tradeParams().limit - 1n }],
    ];
    for (const [fn, change] of other) {
      expect(
        await verdict(request, sentAs(tradeTx(fn, tradeParams(change), 0n))),
        `${fn} ${JSON.stringify(change, (_, v) => (typeof v === 'bigint' ? v.toString() : v))}`,
      ).toBe('differs');
    }
  });

  it('reads an exact-out limit as a ceiling: more may not be spent than the build allows', async () => {
    const request = buyRequest('buyExactOut');
    const params = tradeParams();
    expect(await verdict(request, sentAs(tradeTx('buyExactOut', { ...params, limit: params.limit - 1n }, 0n)))).toBe(
      'ok',
    );
    expect(await verdict(request, sentAs(tradeTx('buyExactOut', { ...params, limit: params.limit + 1n }, 0n)))).toBe(
      'differs',
    );
  });

  it('refuses every transaction for a request never built', async () => {
    const request: FulfilledRequest = { kind: 'prepare_buy', wallet: WALLET, build: null };
    expect(await verdict(request, sentAs(tradeTx('buyExactIn', tradeParams(), 0n)))).toBe('WRONG_CONTRACT');
  });
});

describe('checkFulfilment: a launch', () => {
  const launchRequest = (token: unknown = ANNOUNCED): FulfilledRequest => ({
    kind: 'prepare_launch',
    wallet: WALLET,
    build: { token, tx: launchTx(launchParams(), parseEther('1.5')) },
  });

  it('accepts the launch of the announced token, with the first buy, split and royalty built', async () => {
    const sent = sentAs(launchTx(launchParams(), parseEther('1.5')));
    expect(await verdict(launchRequest(), sent)).toBe('ok');
    expect(await verdict(launchRequest(OTHER), sent)).toBe('differs');
  });

  it('refuses a launch of another token, or of the announced one with another first buy or royalty', async () => {
    const changes: Partial<LaunchParams>[] = [
      { salt: `0x${'cd'.repeat(32)}` },
      { firstBuy: parseEther('2') },
      { minTokens: launchParams().minTokens - 1n },
      { firstBuyTo: [{ wallet: OTHER, bps: 10000 }] },
      { royaltyTo: OTHER },
      { burnBps: 5000 },
    ];
    for (const change of changes) {
      const sent = sentAs(launchTx(launchParams(change), parseEther('1.5')));
      expect(await verdict(launchRequest(), sent)).toBe('differs');
    }
    const trade = { ...tradeTx('buyExactIn', tradeParams(), 0n), to: KNOWN.factory };
    expect(await verdict(launchRequest(), sentAs(trade))).toBe('WRONG_CONTRACT');
  });
});
