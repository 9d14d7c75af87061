import { type Address, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAccounts } from '../src-main/chain/devnet/testAccounts';
import { LaunchToken } from '../src-main/chain/generated/contracts';
import { PancakeV3Pool } from '../src-main/chain/generated/vendor';
import { type ApiClient, apiClient } from './support/apiClient';
import { FIXTURE_TRADER, type LaunchedToken, startTradingFixture, type TradingFixture } from './support/tradingFixture';

let f: TradingFixture;
let api: ApiClient;
const trader = testAccounts()[FIXTURE_TRADER]?.address as Address;

beforeAll(async () => {
  f = await startTradingFixture();
  api = apiClient(f.service);
  await f.service.indexer.waitFor(await f.client.getBlockNumber({ cacheTime: 0 }));
});
afterAll(async () => {
  await f?.service.dispose();
});

/** The market as the chain has it: price and cap from slot0, supply from the token. */
async function chainMarket(launched: LaunchedToken) {
  const [[sqrtPriceX96], supply] = await Promise.all([
    f.client.readContract({ address: launched.pool, abi: PancakeV3Pool.abi, functionName: 'slot0' }),
    f.client.readContract({ address: launched.token, abi: LaunchToken.abi, functionName: 'totalSupply' }),
  ]);
  const priceX192 = sqrtPriceX96 * sqrtPriceX96;
  const tokenIs0 = BigInt(launched.token) < BigInt(launched.pair);
  const value = (wei: bigint) => (tokenIs0 ? (wei * priceX192) >> 192n : (wei << 192n) / priceX192);
  return { priceWei: value(10n ** 18n), capWei: value(supply), supply };
}

describe('GET /tokens/{address}/trades', () => {
  it("lists the fixture's buy from the index with the pool's market", async () => {
    const { status, body } = await api.get(`/tokens/${f.bnbToken.token}/trades`);
    expect(status).toBe(200);
    expect(body.trades).toHaveLength(1);
    const [trade] = body.trades;
    expect(trade).toMatchObject({
      side: 'buy',
      trader,
      pairWei: parseEther('2').toString(),
      feeWei: parseEther('0.02').toString(),
      referrer: null,
    });
    expect(BigInt(trade.tokenWei)).toBeGreaterThan(0n);
    expect(trade.tx).toMatch(/^0x[0-9a-f]{64}$/);
    expect(new Date(trade.at).toISOString()).toBe(trade.at);
    const chain = await chainMarket(f.bnbToken);
    expect(body.market).toMatchObject({
      priceWei: chain.priceWei.toString(),
      marketCap: { wei: chain.capWei.toString() },
      pair: { address: f.contracts.wbnb, symbol: 'BNB', decimals: 18 },
      supplyWei: chain.supply.toString(),
    });
    expect(parseEther(body.market.marketCap.amount)).toBe(chain.capWei);
    expect(typeof body.market.marketCapUsd).toBe('number');
    expect(body.market.marketCapUsd).toBeGreaterThan(0);
  });

  it('prices a USDT pair in dollars one for one', async () => {
    const { status, body } = await api.get(`/tokens/${f.usdtToken.token}/trades`);
    expect(status).toBe(200);
    expect(body.trades[0]).toMatchObject({ side: 'buy', trader, pairWei: parseEther('1000').toString() });
    expect(body.market.pair).toEqual({ address: f.contracts.usdt, symbol: 'USDT', decimals: 18 });
    const cents = BigInt(body.market.marketCap.wei) / 10n ** 16n;
    expect(body.market.marketCapUsd).toBe(Number(cents) / 100);
  });

  it('answers newest first and honours limit', async () => {
    const { token, pair, pool } = f.bnbToken;
    await f.driver.allowRouter(FIXTURE_TRADER, token);
    const sold = await f.driver.trade(
      FIXTURE_TRADER,
      'sellExactIn',
      f.driver.params({ token, pair, pool }, parseEther('1000'), 0n),
    );
    expect(sold.result).toBe('ok');
    await f.service.indexer.waitFor(await f.client.getBlockNumber({ cacheTime: 0 }));
    const all = await api.get(`/tokens/${token}/trades`);
    expect(all.body.trades.map((t: { side: string }) => t.side)).toEqual(['sell', 'buy']);
    expect(all.body.trades[0]).toMatchObject({ tx: sold.hash, tokenWei: parseEther('1000').toString() });
    expect(all.body.trades[0].block).toBeGreaterThan(all.body.trades[1].block);
    const one = await api.get(`/tokens/${token}/trades?limit=1`);
    expect(one.status).toBe(200);
    expect(one.body.trades).toEqual([all.body.trades[0]]);
    // The sale moved the pool, and the market follows it.
    expect(one.body.market.priceWei).toBe((await chainMarket(f.bnbToken)).priceWei.toString());
  });

  it('refuses a bad limit, an unknown token and a malformed address by code', async () => {
    for (const limit of ['0', '201', 'abc', '-1', '1.5', '']) {
      const { status, body } = await api.get(`/tokens/${f.bnbToken.token}/trades?limit=${limit}`);
      expect(status, limit).toBe(400);
      expect(body.error).toMatchObject({ code: 'INVALID_BODY', field: 'limit' });
    }
    const unknown = await api.get(`/tokens/${f.contracts.usdt}/trades`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe('UNKNOWN_TOKEN');
    const malformed = await api.get('/tokens/0x123/trades');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toMatchObject({ code: 'INVALID_ADDRESS', field: 'address' });
  });
});

describe('GET /balances', () => {
  it("reads a wallet's BNB, token and pair from the chain; a BNB pair is the BNB balance", async () => {
    const { status, body } = await api.get(`/balances?wallet=${trader.toLowerCase()}&token=${f.bnbToken.token}`);
    expect(status).toBe(200);
    const bnb = await f.client.getBalance({ address: trader });
    const tokens = await f.driver.balanceOf(f.bnbToken.token, trader);
    expect(body).toEqual({
      wallet: trader,
      bnbWei: bnb.toString(),
      token: { address: f.bnbToken.token, symbol: 'MCAT', decimals: 18, wei: tokens.toString() },
      pair: { address: f.contracts.wbnb, symbol: 'BNB', decimals: 18, wei: bnb.toString(), native: true },
    });
    expect(tokens).toBeGreaterThan(0n);
  });

  it('reads an ERC-20 pair from its contract', async () => {
    const usdt = f.contracts.usdt as Address;
    const { status, body } = await api.get(`/balances?wallet=${trader}&token=${f.usdtToken.token}`);
    expect(status).toBe(200);
    expect(body.pair).toEqual({
      address: usdt,
      symbol: 'USDT',
      decimals: 18,
      wei: (await f.driver.balanceOf(usdt, trader)).toString(),
      native: false,
    });
    expect(body.token.wei).toBe((await f.driver.balanceOf(f.usdtToken.token, trader)).toString());
  });

  it('refuses a missing or malformed wallet or token, and a token it did not launch, by code', async () => {
    const cases: [string, string, string][] = [
      [`/balances?token=${f.bnbToken.token}`, 'INVALID_ADDRESS', 'wallet'],
      [`/balances?wallet=0x12&token=${f.bnbToken.token}`, 'INVALID_ADDRESS', 'wallet'],
      [`/balances?wallet=${trader}`, 'INVALID_ADDRESS', 'token'],
      [`/balances?wallet=${trader}&token=nope`, 'INVALID_ADDRESS', 'token'],
      [`/balances?wallet=${trader}&token=${f.contracts.usdt}`, 'UNKNOWN_TOKEN', 'token'],
    ];
    for (const [path, code, field] of cases) {
      const { status, body } = await api.get(path);
      expect(status, path).toBe(400);
      expect(body.error, path).toMatchObject({ code, field });
    }
  });
});
