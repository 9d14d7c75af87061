import { type Address, erc20Abi, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAccounts } from '../src-main/chain/devnet/testAccounts';
import { QuoterV2 } from '../src-main/chain/generated/vendor';
import { type ApiClient, apiClient } from './support/apiClient';
import { devnetTestClient } from './support/devnetTestClient';
import { startTradingFixture, type TradingFixture } from './support/tradingFixture';

let f: TradingFixture;
let api: ApiClient;

beforeAll(async () => {
  f = await startTradingFixture();
  api = apiClient(f.service);
});
afterAll(async () => {
  await f?.service.dispose();
});

const get = (path: string) => api.get(path);

describe('GET /tokens/{address}', () => {
  it('describes a launched token: pool, creator, pair currency', async () => {
    const { status, body } = await get(`/tokens/${f.bnbToken.token}`);
    expect(status).toBe(200);
    expect(body).toEqual({
      address: f.bnbToken.token,
      pool: f.bnbToken.pool,
      creator: f.bnbToken.creator,
      symbol: 'MCAT',
      name: 'Moon Cat',
      fee: 10000,
      decimals: 18,
      quote: { address: f.contracts.wbnb, decimals: 18, symbol: 'BNB' },
      quoteIsBnb: true,
      // Added for the token page (issue 17): the fixture's launch has no logo or metadata details.
      image: null,
      launchedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/),
      details: null,
      // Added for issue 31; test/holders.http.test.ts holds each figure against the chain.
      holders: expect.objectContaining({ count: expect.any(Number), top: expect.any(Array) }),
    });
    const usdt = await get(`/tokens/${f.usdtToken.token.toLowerCase()}`);
    expect(usdt.body.quote).toEqual({ address: f.contracts.usdt, decimals: 18, symbol: 'USDT' });
    expect(usdt.body.quoteIsBnb).toBe(false);
    expect(usdt.body.address).toBe(f.usdtToken.token);
  });

  it('answers UNKNOWN_TOKEN for an address the service did not launch, and INVALID_ADDRESS for a malformed one', async () => {
    for (const address of [f.contracts.usdt, '0x00000000000000000000000000000000c0ffee01']) {
      const { status, body } = await get(`/tokens/${address}`);
      expect(status).toBe(400);
      expect(body.error.code).toBe('UNKNOWN_TOKEN');
    }
    for (const address of ['0x123', 'hello', `${f.bnbToken.token}00`, '0xZZ00000000000000000000000000000000c0ffee']) {
      const { status, body } = await get(`/tokens/${address}`);
      expect(status, address).toBe(400);
      expect(body.error).toMatchObject({ code: 'INVALID_ADDRESS', field: 'address' });
    }
  });
});

async function onChainQuote(kind: 'in' | 'out', tokenIn: Address, tokenOut: Address, amount: bigint): Promise<bigint> {
  const { result } = await f.client.simulateContract({
    address: f.contracts.quoter as Address,
    abi: QuoterV2.abi,
    functionName: kind === 'in' ? 'quoteExactInputSingle' : 'quoteExactOutputSingle',
    args: [
      kind === 'in'
        ? { tokenIn, tokenOut, amountIn: amount, fee: 10000, sqrtPriceLimitX96: 0n }
        : { tokenIn, tokenOut, amount, fee: 10000, sqrtPriceLimitX96: 0n },
    ],
  } as never);
  return (result as readonly bigint[])[0] as bigint;
}

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;

describe('GET /quote', () => {
  it('quotes all four trades to the wei of the on-chain quoter, site fee included', async () => {
    const { token, pair } = f.bnbToken;
    // Buy exact in: 1 BNB pays 1% site fee, the rest goes to the pool.
    const buyIn = await get(`/quote?token=${token}&side=buy&amount=1`);
    expect(buyIn.status).toBe(200);
    // Each amount with its dollar value (an addition of issue 29, checked in test/apiAdditions.http.test.ts).
    const usd = expect.stringMatching(/^\d+(\.\d{1,6})?$/);
    expect(buyIn.body.pay).toEqual({ amount: '1', wei: parseEther('1').toString(), symbol: 'BNB', usd });
    expect(buyIn.body.siteFee).toEqual({
      amount: '0.01',
      wei: parseEther('0.01').toString(),
      symbol: 'BNB',
      bps: 100,
      usd,
    });
    const tokensOut = await onChainQuote('in', pair, token, parseEther('0.99'));
    expect(buyIn.body.receive.wei).toBe(tokensOut.toString());
    expect(buyIn.body.receive.symbol).toBe('MCAT');
    expect(buyIn.body.limit).toMatchObject({ kind: 'minReceive', wei: ((tokensOut * 9950n) / 10000n).toString() });
    expect(buyIn.body).toMatchObject({ side: 'buy', exact: 'in', slippageBps: 50 });
    expect(buyIn.body.token).toEqual({
      address: token,
      symbol: 'MCAT',
      pool: f.bnbToken.pool,
      feeTier: 10000,
      pair: { address: pair, decimals: 18, symbol: 'BNB' },
    });
    expect(buyIn.body.priceImpactPct).toBeGreaterThan(0);

    // Sell exact in: the pool's gross less the site fee (rounded up).
    const sellIn = await get(`/quote?token=${token}&side=sell&amount=1000000&slippageBps=100`);
    const gross = await onChainQuote('in', token, pair, parseEther('1000000'));
    const fee = ceilDiv(gross * 100n, 10000n);
    expect(sellIn.body.receive.wei).toBe((gross - fee).toString());
    expect(sellIn.body.siteFee.wei).toBe(fee.toString());
    expect(sellIn.body.limit.wei).toBe((((gross - fee) * 9900n) / 10000n).toString());

    // Buy exact out: what the pool needs, grossed up for the fee.
    const buyOut = await get(`/quote?token=${token}&side=buy&amount=250000&exact=out`);
    const net = await onChainQuote('out', pair, token, parseEther('250000'));
    const pay = ceilDiv(net * 10000n, 9900n);
    expect(buyOut.body.pay.wei).toBe(pay.toString());
    expect(buyOut.body.receive.wei).toBe(parseEther('250000').toString());
    expect(buyOut.body.limit).toMatchObject({ kind: 'maxPay', wei: ceilDiv(pay * 10050n, 10000n).toString() });

    // Sell exact out: receive exactly 0.1 BNB after the fee.
    const sellOut = await get(`/quote?token=${token}&side=sell&amount=0.1&exact=out`);
    const grossOut = ceilDiv(parseEther('0.1') * 10000n, 9900n);
    const tokensIn = await onChainQuote('out', token, pair, grossOut);
    expect(sellOut.body.pay.wei).toBe(tokensIn.toString());
    expect(sellOut.body.receive).toEqual({ amount: '0.1', wei: parseEther('0.1').toString(), symbol: 'BNB', usd });
  });

  it('quotes a BEP-20 pair in its own currency', async () => {
    const { token, pair } = f.usdtToken;
    const { body } = await get(`/quote?token=${token}&side=buy&amount=100`);
    expect(body.pay.symbol).toBe('USDT');
    expect(body.siteFee).toMatchObject({ symbol: 'USDT', wei: parseEther('1').toString() });
    expect(body.receive.wei).toBe((await onChainQuote('in', pair, token, parseEther('99'))).toString());
  });

  it('answers every listed error with its code and field', async () => {
    const t = f.bnbToken.token;
    const cases: [string, string, string | undefined][] = [
      [`token=${f.contracts.usdt}&side=buy&amount=1`, 'UNKNOWN_TOKEN', 'token'],
      ['token=0x12&side=buy&amount=1', 'INVALID_ADDRESS', 'token'],
      ['side=buy&amount=1', 'INVALID_ADDRESS', 'token'],
      [`token=${t}&side=hold&amount=1`, 'INVALID_SIDE', 'side'],
      [`token=${t}&amount=1`, 'INVALID_SIDE', 'side'],
      [`token=${t}&side=buy&amount=1&exact=both`, 'INVALID_EXACT', 'exact'],
      [`token=${t}&side=buy&amount=-1`, 'INVALID_AMOUNT', 'amount'],
      [`token=${t}&side=buy&amount=1e3`, 'INVALID_AMOUNT', 'amount'],
      [`token=${t}&side=buy`, 'INVALID_AMOUNT', 'amount'],
      [`token=${t}&side=buy&amount=0`, 'INVALID_AMOUNT', 'amount'],
      [`token=${t}&side=buy&amount=0.0000000000000000001`, 'TOO_MANY_DECIMALS', 'amount'],
      [`token=${t}&side=buy&amount=1&slippageBps=0`, 'INVALID_SLIPPAGE', 'slippageBps'],
      [`token=${t}&side=buy&amount=1&slippageBps=5001`, 'INVALID_SLIPPAGE', 'slippageBps'],
      [`token=${t}&side=buy&amount=1&slippageBps=1.5`, 'INVALID_SLIPPAGE', 'slippageBps'],
      [`token=${t}&side=buy&amount=0.000000000000000001`, 'AMOUNT_TOO_SMALL', undefined],
      [`token=${t}&side=sell&amount=900000000`, 'POOL_TOO_THIN', undefined],
      [`token=${t}&side=buy&amount=2000000000&exact=out`, 'POOL_TOO_THIN', undefined],
    ];
    for (const [query, code, field] of cases) {
      const { status, body } = await get(`/quote?${query}`);
      expect(body.error?.code, query).toBe(code);
      expect(status, query).toBe(code === 'AMOUNT_TOO_SMALL' || code === 'POOL_TOO_THIN' ? 422 : 400);
      if (field) expect(body.error.field, query).toBe(field);
      expect(body.error.fix, query).toBeTruthy();
    }
  });

  it('follows the chain: after a trade lands, the next quote reflects the moved price', async () => {
    const { token } = f.bnbToken;
    const before = (await get(`/quote?token=${token}&side=buy&amount=1`)).body.receive.wei;
    const d = f.driver;
    const pool = { token, pair: f.bnbToken.pair, pool: f.bnbToken.pool };
    expect((await d.trade(6, 'buyExactIn', d.params(pool, parseEther('3'), 0n), parseEther('3'))).result).toBe('ok');
    const after = (await get(`/quote?token=${token}&side=buy&amount=1`)).body;
    expect(BigInt(after.receive.wei) < BigInt(before)).toBe(true);
    expect(after.receive.wei).toBe((await onChainQuote('in', f.bnbToken.pair, token, parseEther('0.99'))).toString());
  });
});

const post = (path: string, body: unknown) => api.post(path, body);

const signAndSend: ApiClient['signAndSend'] = (index, tx) => api.signAndSend(index, tx);

const address = (index: number) => testAccounts()[index]?.address as Address;
const tokenBalance = (token: Address, who: Address) =>
  f.client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [who] });

describe('POST /build/buy and /build/sell', () => {
  it('builds a BNB buy that lands for exactly what it said: pay, receive, site fee and referrer cut', async () => {
    const wallet = address(7);
    const referrer = f.bnbToken.creator;
    const recipient = f.contracts.siteFeeRecipient as Address;
    const { status, body } = await post('/build/buy', { wallet, token: f.bnbToken.token, amount: '0.5', referrer });
    expect(status).toBe(200);
    expect(body.requires).toEqual([]);
    expect(body.simulation).toEqual({ ran: true, ok: true });
    expect(BigInt(body.tx.gas)).toBeGreaterThan(100000n);
    expect(body.tx).toMatchObject({ to: f.contracts.router, value: parseEther('0.5').toString(), chainId: 31337 });
    expect(body.referrer).toEqual({ address: referrer, bps: 20 });
    expect(body.wallet).toBe(wallet);
    expect(BigInt(body.cost.maxWei)).toBe(BigInt(body.tx.gas) * BigInt(body.cost.gasPriceWei));
    expect(new Date(body.expiresAt).getTime()).toBeGreaterThan(Date.now() + 1100 * 1000);
    expect(body.explain).toMatch(/Pay 0.5 BNB for about .* MCAT .*site fee 0.005 BNB.*referrer/);
    const before = {
      wallet: await f.client.getBalance({ address: wallet }),
      recipient: await f.client.getBalance({ address: recipient }),
      referrer: await f.client.getBalance({ address: referrer }),
      tokens: await tokenBalance(f.bnbToken.token, wallet),
    };
    const receipt = await signAndSend(7, body.tx);
    const gasPaid = receipt.gasUsed * receipt.effectiveGasPrice;
    expect(before.wallet - (await f.client.getBalance({ address: wallet }))).toBe(BigInt(body.pay.wei) + gasPaid);
    expect((await tokenBalance(f.bnbToken.token, wallet)) - before.tokens).toBe(BigInt(body.receive.wei));
    const cut = (BigInt(body.pay.wei) * 20n) / 10000n;
    expect((await f.client.getBalance({ address: recipient })) - before.recipient).toBe(BigInt(body.siteFee.wei) - cut);
    expect((await f.client.getBalance({ address: referrer })) - before.referrer).toBe(cut);
  });

  it('sells a token launched here after one approval, Permit2 letting the router; once sent, the sale lands exactly', async () => {
    const wallet = address(7);
    const held = await tokenBalance(f.bnbToken.token, wallet);
    const amount = (held / 2n / 10n ** 18n).toString();
    const first = await post('/build/sell', { wallet, token: f.bnbToken.token, amount, referrer: null });
    expect(first.status).toBe(200);
    // The token gives Permit2 its allowance itself: the one step left is Permit2's time-bounded approval of the router.
    expect(first.body.requires.map((s: { step: string }) => s.step)).toEqual(['approve-router']);
    // Not simulated as things stand, but on a copy of the chain with the steps done, the sale goes through.
    expect(first.body.simulation).toEqual({ ran: false, ok: false, afterSteps: { ran: true, ok: true } });
    expect(first.body.tx.gas).toBeUndefined();
    expect(first.body.referrer).toBeNull();
    for (const step of first.body.requires) {
      expect(step.explain.length).toBeGreaterThan(10);
      await signAndSend(7, step.tx);
    }
    const second = await post('/build/sell', { wallet, token: f.bnbToken.token, amount, referrer: null });
    expect(second.body.requires).toEqual([]);
    expect(second.body.simulation).toEqual({ ran: true, ok: true });
    const recipient = f.contracts.siteFeeRecipient as Address;
    const before = await f.client.getBalance({ address: wallet });
    const recipientBefore = await f.client.getBalance({ address: recipient });
    const receipt = await signAndSend(7, second.body.tx);
    const gasPaid = receipt.gasUsed * receipt.effectiveGasPrice;
    expect((await f.client.getBalance({ address: wallet })) - before + gasPaid).toBe(BigInt(second.body.receive.wei));
    expect((await f.client.getBalance({ address: recipient })) - recipientBefore).toBe(BigInt(second.body.siteFee.wei));
    expect(held - (await tokenBalance(f.bnbToken.token, wallet))).toBe(BigInt(second.body.pay.wei));
  });

  it('builds an exact-out buy whose unused BNB comes back', async () => {
    const wallet = address(8);
    const { body } = await post('/build/buy', { wallet, token: f.bnbToken.token, amount: '100000', exact: 'out' });
    expect(body.limit.kind).toBe('maxPay');
    expect(body.tx.value).toBe(body.limit.wei);
    const before = await f.client.getBalance({ address: wallet });
    const receipt = await signAndSend(8, body.tx);
    const gasPaid = receipt.gasUsed * receipt.effectiveGasPrice;
    expect(await tokenBalance(f.bnbToken.token, wallet)).toBe(parseEther('100000'));
    expect(before - (await f.client.getBalance({ address: wallet })) - gasPaid).toBe(BigInt(body.pay.wei));
  });

  it('builds a BEP-20 pair buy through its approvals, paying exactly the USDT it said', async () => {
    const wallet = address(9);
    const { usdt } = f.contracts as Record<string, Address>;
    const recipient = f.contracts.siteFeeRecipient as Address;
    const first = await post('/build/buy', { wallet, token: f.usdtToken.token, amount: '250' });
    expect(first.body.requires.map((s: { step: string }) => s.step)).toEqual(['approve-permit2', 'approve-router']);
    for (const step of first.body.requires) await signAndSend(9, step.tx);
    const { body } = await post('/build/buy', { wallet, token: f.usdtToken.token, amount: '250' });
    expect(body.tx.value).toBe('0');
    const before = {
      wallet: await tokenBalance(usdt as Address, wallet),
      recipient: await tokenBalance(usdt as Address, recipient),
    };
    await signAndSend(9, body.tx);
    expect(before.wallet - (await tokenBalance(usdt as Address, wallet))).toBe(parseEther('250'));
    expect((await tokenBalance(usdt as Address, recipient)) - before.recipient).toBe(parseEther('2.5'));
    expect(await tokenBalance(f.usdtToken.token, wallet)).toBe(BigInt(body.receive.wei));
  });

  it('answers each build error with its code', async () => {
    const wallet = address(10);
    const t = f.bnbToken.token;
    const expectCode = async (body: unknown, code: string, field?: string, path = '/build/buy') => {
      const answer = await post(path, body);
      expect(answer.body.error?.code, JSON.stringify(body)).toBe(code);
      if (field) expect(answer.body.error.field).toBe(field);
    };
    await expectCode({ wallet, token: t, amount: '1', referrer: wallet }, 'SELF_REFERRAL', 'referrer');
    await expectCode(
      { wallet, token: t, amount: '1', referrer: '0x00000000000000000000000000000000c0ffee01' },
      'REFERRER_NOT_REGISTERED',
      'referrer',
    );
    await expectCode({ wallet, token: t, amount: '1', referrer: 'bob' }, 'INVALID_ADDRESS', 'referrer');
    await expectCode({ wallet: '0x1', token: t, amount: '1' }, 'INVALID_ADDRESS', 'wallet');
    await expectCode({ token: t, amount: '1' }, 'INVALID_ADDRESS', 'wallet');
    await expectCode({ wallet, token: f.contracts.usdt, amount: '1' }, 'UNKNOWN_TOKEN');
    await expectCode({ wallet, token: t, amount: 1 }, 'INVALID_AMOUNT', 'amount');
    await expectCode({ wallet, token: t, amount: '1', slippageBps: 9000 }, 'INVALID_SLIPPAGE', 'slippageBps');
    await expectCode({ wallet, token: t, amount: '1', exact: 'sideways' }, 'INVALID_EXACT', 'exact');
    await expectCode({ wallet, token: t, amount: '900000000' }, 'POOL_TOO_THIN', undefined, '/build/sell');
    await expectCode({ wallet, token: t, amount: `1${'0'.repeat(60)}` }, 'CANNOT_BUILD', 'amount');
    // A wallet with no BNB at all cannot pay the amount.
    await expectCode(
      { wallet: '0x00000000000000000000000000000000c0ffee02', token: t, amount: '1' },
      'INSUFFICIENT_BALANCE',
    );
    const poor = await post('/build/buy', { wallet, token: t, amount: '20000' });
    expect(poor.body.error.code).toBe('INSUFFICIENT_BALANCE');
    expect(poor.body.error.message).toMatch(/holds 10000 BNB; the trade needs 20000 BNB/);
    await expectCode('a JSON string, not an object', 'INVALID_BODY');
    const raw = await fetch(`${f.service.url}/build/sell`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"wallet": ',
    });
    expect(((await raw.json()) as any).error.code).toBe('INVALID_JSON');
  });

  it('refuses a build whose simulation reverts, with the decoded reason', async () => {
    // A contract wallet that cannot take back the unused BNB of an exact-out buy: the router's refund reverts.
    const devnet = f.service.chain.devnet;
    if (!devnet) throw new Error('no devnet');
    const config = f.contracts.config as Address;
    await devnetTestClient(devnet).setBalance({ address: config, value: parseEther('1000') });
    const { status, body } = await post('/build/buy', {
      wallet: config,
      token: f.bnbToken.token,
      amount: '1000',
      exact: 'out',
    });
    expect(status).toBe(422);
    expect(body.error.code).toBe('SIMULATION_FAILED');
    expect(body.error.detail.revert.name).toBe('BnbTransferFailed');
  });
});
