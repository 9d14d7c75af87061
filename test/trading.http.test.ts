import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTradingFixture, type TradingFixture } from './support/tradingFixture';

let f: TradingFixture;

beforeAll(async () => {
  f = await startTradingFixture();
});
afterAll(async () => {
  await f?.service.dispose();
});

async function get(path: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${f.service.url}${path}`);
  return { status: response.status, body: await response.json() };
}

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
