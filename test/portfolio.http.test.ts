import { type Address, erc20Abi, formatUnits, getAbiItem, parseUnits, type TransactionReceipt } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAccounts } from '../src-main/chain/devnet/testAccounts';
import { TradeRouter } from '../src-main/chain/generated/contracts';
import { type ApiClient, apiClient } from './support/apiClient';
import { bnbDollars, dollarMicros, type Fraction, PAR, tokenPrice } from './support/chainPrices';
import { launchBnbToken, positionFromReceipts } from './support/portfolioTrades';
import { tradeThroughService } from './support/serviceTrade';
import { type LaunchedToken, startTradingFixture, type TradingFixture } from './support/tradingFixture';

/*
 * Issue 31's portfolio, over real HTTP on the devnet: one wallet buys two BNB-pair tokens and a USDT-pair one through
 * the service and sells part of one; GET /wallets/{address}/positions must then hold each token's cost, realized and
 * unrealized profit equal to the trades to the wei, summed here from the receipts' Trade events (not by the service's
 * code), its 24 h change as the chain's trades give it, and totals that are the sums of the rows, per pair and in
 * dollars.
 */

/** A wallet only this file trades with. */
const TRADER = 9;
const trader = testAccounts()[TRADER]?.address as Address;
const E18 = 10n ** 18n;

let f: TradingFixture;
let api: ApiClient;
/** A second BNB-pair token, launched here. */
let second: LaunchedToken;
/** The trader's receipts, by token. */
const receipts = new Map<Address, TransactionReceipt[]>();

const balanceOf = (token: Address) =>
  f.client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [trader] });

async function trade(token: Address, side: 'buy' | 'sell', amount: string) {
  const receipt = await tradeThroughService(api, f.service.indexer, TRADER, token, side, amount);
  receipts.set(token, [...(receipts.get(token) ?? []), receipt]);
}

beforeAll(async () => {
  f = await startTradingFixture({ rateLimits: false });
  api = apiClient(f.service);
  second = await launchBnbToken(f, 8, 'portfolio-second');

  await trade(f.bnbToken.token, 'buy', '0.4');
  await trade(second.token, 'buy', '0.5');
  await trade(f.bnbToken.token, 'buy', '0.6');
  await trade(f.usdtToken.token, 'buy', '50');
  // Part of the first token: 40% of what the two buys gave.
  await trade(f.bnbToken.token, 'sell', formatUnits(((await balanceOf(f.bnbToken.token)) * 2n) / 5n, 18));
});
afterAll(async () => {
  await f?.service.dispose();
});

/** What a token's position must be, worked out here by average cost from the receipts' Trade events and the pool. */
async function expected(token: LaunchedToken) {
  const { held, cost, realized, spent, received } = positionFromReceipts(
    receipts.get(token.token) ?? [],
    trader,
    token.token,
  );
  const balance = await balanceOf(token.token);
  expect(balance, 'the chain holds what the trades left').toBe(held);
  const price = await tokenPrice(f.client, token);
  const value = (balance * price.num) / price.den;
  return { balance, cost, realized, spent, received, value, unrealized: value - cost, price };
}

/** The dollar price of a token's pair, from the chain. */
const pairDollars = async (token: LaunchedToken): Promise<Fraction> =>
  token.pair === f.contracts.usdt ? PAR : bnbDollars(f.client, f.contracts);

/** The change the token's own trades give: its first trade (all are within the day) against the pool price now. */
async function expectedChange(token: LaunchedToken) {
  const logs = await f.client.getLogs({
    address: f.contracts.router as Address,
    event: getAbiItem({ abi: TradeRouter.abi, name: 'Trade' }),
    args: { token: token.token },
    fromBlock: 0n,
  });
  const first = logs[0]?.args;
  if (!first?.pairAmount || !first.tokenAmount) throw new Error('the token has no trade');
  const from = (first.pairAmount * E18) / first.tokenAmount;
  const price = await tokenPrice(f.client, token);
  const now = (E18 * price.num) / price.den;
  return { pct: Number(((now - from) * 1_000_000n) / from) / 10_000, fromPriceWei: from.toString(), complete: true };
}

const figures = ['value', 'cost', 'realized', 'unrealized'] as const;
/** A position as the test reads its figures. */
type Row = Record<(typeof figures)[number], { wei: string; usd: string }> & { token: { pair: { address: string } } };

describe('GET /wallets/{address}/positions after two tokens bought and part of one sold', () => {
  it("holds each token's cost and profit equal to the trades to the wei, valued at its pool, with its 24 h change", async () => {
    const { status, body } = await api.get(`/wallets/${trader}/positions`);
    expect(status).toBe(200);
    expect(body.positions).toHaveLength(3);
    for (const token of [f.bnbToken, second, f.usdtToken]) {
      const want = await expected(token);
      const row = body.positions.find((p: { token: { address: string } }) => p.token.address === token.token);
      expect(row, token.token).toBeDefined();
      const dollars = await pairDollars(token);
      const usd = (wei: bigint) => formatUnits(dollarMicros(wei, dollars), 6);
      expect(row.token.pair.address).toBe(token.pair);
      expect(row.balance.wei).toBe(want.balance.toString());
      expect(row.cost).toEqual({ amount: formatUnits(want.cost, 18), wei: want.cost.toString(), usd: usd(want.cost) });
      expect(row.realized.wei).toBe(want.realized.toString());
      expect(row.realized.usd).toBe(usd(want.realized));
      expect(row.value.wei).toBe(want.value.toString());
      expect(row.unrealized.wei).toBe(want.unrealized.toString());
      expect(row.unrealized.usd).toBe(usd(want.unrealized));
      expect(row.averageCost.wei).toBe(((want.cost * E18) / want.balance).toString());
      expect(row.trades.spent.wei).toBe(want.spent.toString());
      expect(row.trades.received.wei).toBe(want.received.toString());
      expect(row.change24h).toEqual(await expectedChange(token));
    }
    const sold = body.positions.find((p: { token: { address: string } }) => p.token.address === f.bnbToken.token);
    expect(sold.trades).toMatchObject({ buys: 2, sells: 1 });
    expect(BigInt(sold.realized.wei)).not.toBe(0n);
  });

  it('totals the rows exactly: per pair currency in wei, and in dollars as the sum of the rows', async () => {
    const { body } = await api.get(`/wallets/${trader}/positions`);
    const rows = body.positions as Row[];
    const pairs = [...new Set(rows.map((row) => row.token.pair.address))].sort();
    expect(body.totals.pairs.map((total: { pair: { address: string } }) => total.pair.address)).toEqual(pairs);
    for (const total of body.totals.pairs) {
      const mine = rows.filter((row) => row.token.pair.address === total.pair.address);
      expect(total.positions).toBe(mine.length);
      for (const figure of figures) {
        const wei = mine.reduce((sum, row) => sum + BigInt(row[figure].wei), 0n);
        const usd = mine.reduce((sum, row) => sum + parseUnits(row[figure].usd, 6), 0n);
        expect(total[figure].wei, `${total.pair.symbol} ${figure}`).toBe(wei.toString());
        expect(parseUnits(total[figure].usd, 6), `${total.pair.symbol} ${figure} $`).toBe(usd);
      }
    }
    expect(body.totals.pairs.map((total: { positions: number }) => total.positions)).toEqual(
      pairs.map((pair) => (pair === f.contracts.usdt ? 1 : 2)),
    );
    for (const figure of figures) {
      const micros = rows.reduce((sum, row) => sum + parseUnits(row[figure].usd, 6), 0n);
      expect(body.totals[figure], figure).toBe(formatUnits(micros, 6));
    }
    expect(body.totals.unpriced).toEqual([]);
  });

  it('lists a token sold out only with closed=true, its realized profit counted in the totals then', async () => {
    await trade(second.token, 'sell', formatUnits(await balanceOf(second.token), 18));
    const want = await expected(second);
    expect(want.balance).toBe(0n);
    const open = (await api.get(`/wallets/${trader}/positions`)).body;
    expect(open.positions.map((p: { token: { address: string } }) => p.token.address)).not.toContain(second.token);
    const all = (await api.get(`/wallets/${trader}/positions?closed=true`)).body;
    expect(all.positions).toHaveLength(3);
    // Held first: the sold-out token comes last.
    const closed = all.positions[2];
    expect(closed.token.address).toBe(second.token);
    expect([closed.balance.wei, closed.value.wei, closed.cost.wei, closed.averageCost]).toEqual(['0', '0', '0', null]);
    expect(closed.realized.wei).toBe(want.realized.toString());
    expect(closed.realized.wei).toBe((want.received - want.spent).toString());
    const bnbPair = (body: { totals: { pairs: { pair: { address: string }; realized: { wei: string } }[] } }) =>
      body.totals.pairs.find((total) => total.pair.address === f.contracts.wbnb)?.realized.wei;
    expect(BigInt(bnbPair(all) ?? '')).toBe(BigInt(bnbPair(open) ?? '') + want.realized);
  });

  it('refuses a malformed wallet and a closed flag that is not true or false, with the field and a fix', async () => {
    const bad = await api.get('/wallets/0xnot-an-address/positions');
    expect([bad.status, bad.body.error.code, bad.body.error.field]).toEqual([400, 'INVALID_ADDRESS', 'address']);
    expect(bad.body.error.fix.length).toBeGreaterThan(5);
    const flag = await api.get(`/wallets/${trader}/positions?closed=yes`);
    expect([flag.status, flag.body.error.code, flag.body.error.field]).toEqual([400, 'INVALID_BODY', 'closed']);
    expect(flag.body.error.fix).toContain('closed=true');
  });
});
