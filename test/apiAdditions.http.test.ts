import { type Address, encodeFunctionData, erc20Abi, formatUnits, http, type TransactionReceipt } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAccounts } from '../src-main/chain/devnet/testAccounts';
import { type ApiClient, apiClient } from './support/apiClient';
import { bnbDollars, dollarsOf, PAR, tokenPrice, tradesIn } from './support/chainPrices';
import { launcher } from './support/launcher';
import { pngBytes } from './support/pngImage';
import { tradeThroughService } from './support/serviceTrade';
import { FIXTURE_TRADER, startTradingFixture, type TradingFixture } from './support/tradingFixture';

/*
 * The API additions of issue 29, through the real server on the devnet: unknown body fields refused by name, dollar
 * values beside the amounts of quotes and builds, a wallet's positions, a token's trades of one wallet. (The reporting
 * codes are in test/intents.http.test.ts, the error table in test/http.test.ts.)
 */

const APP_TOKEN = 'api-additions-app-token';
/** A wallet nothing else trades with: its positions are only what this file does. */
const TRADER = 6;
const address = (index: number) => testAccounts()[index]?.address as Address;

let f: TradingFixture;
let api: ApiClient;
/** A token whose pair (another launched token) has no dollar price. */
let unpriced: Address;

beforeAll(async () => {
  f = await startTradingFixture({ appToken: APP_TOKEN, rateLimits: false });
  api = apiClient(f.service);
  const settings = (await api.get('/settings')).body as { contracts: Record<string, Address> };
  const l = launcher(
    {
      accounts: testAccounts(),
      contracts: { factory: settings.contracts.factory as Address, wbnb: settings.contracts.wbnb as Address },
      transport: http(`${f.service.origin}/rpc`),
    },
    f.client,
  );
  const launched = await l.launch({ pair: f.bnbToken.token, creator: 7, saltSeed: 'unpriced-pair', openingTick: 0 });
  if (launched.result !== 'ok') throw new Error(`the unpriced launch failed: ${launched.result}`);
  unpriced = launched.token;
});
afterAll(async () => {
  await f?.service.dispose();
});

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${f.service.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

describe('unknown body fields', () => {
  it('refuses a mistyped slippage by name, with the field it was meant to be, and builds without the typo', async () => {
    const body = { wallet: address(TRADER), token: f.bnbToken.token, amount: '0.01' };
    const typo = await post('/build/buy', { ...body, slipageBps: 100 });
    expect(typo.status).toBe(400);
    expect(typo.body.error).toMatchObject({ code: 'INVALID_BODY', field: 'slipageBps' });
    expect(typo.body.error.message).toContain('slipageBps');
    expect(typo.body.error.fix).toContain('slippageBps');
    const right = await post('/build/buy', { ...body, slippageBps: 100 });
    expect(right.status).toBe(200);
    expect(right.body.slippageBps).toBe(100);
  });

  it('answers the unknown field before the rules it makes look broken (a missing wallet beside a walet)', async () => {
    const answer = await post('/build/sell', { walet: address(TRADER), token: f.bnbToken.token, amount: '1' });
    expect(answer.body.error).toMatchObject({ code: 'INVALID_BODY', field: 'walet' });
    expect(answer.body.error.fix).toContain('wallet');
  });

  it('refuses unknown fields of a launch, of its split and of its shape ranges, naming where they sit', async () => {
    const launch = { wallet: address(TRADER), name: 'Typo', symbol: 'TYPO', image: 'https://example.com/logo.png' };
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...launch, marketcapPair: '30' }, 'marketcapPair', 'Did you mean marketCapPair?'],
      [
        { ...launch, marketCapPair: '30', shape: [{ fromPct: 0, toPct: 100, bsp: 10000 }] },
        'shape[0].bsp',
        'Did you mean bps?',
      ],
      [
        { ...launch, marketCapPair: '30', firstBuy: '0.1', firstBuyTo: [{ wallet: address(8), percent: 100 }] },
        'firstBuyTo[0].percent',
        'pct',
      ],
    ];
    for (const [body, field, meant] of cases) {
      const answer = await post('/build/launch', body);
      expect([answer.status, answer.body.error.code, answer.body.error.field], field).toEqual([
        400,
        'INVALID_BODY',
        field,
      ]);
      // The fix names the field meant when one is near; the message always lists the fields taken.
      expect(`${answer.body.error.message} ${answer.body.error.fix}`).toContain(meant);
    }
  });

  it('refuses unknown fields of every other body: keys, referrals, claims, prepared requests and their reports', async () => {
    const signed = { nonce: 'n', signature: `0x${'ab'.repeat(65)}` };
    const asApp = { 'x-app-token': APP_TOKEN };
    const created = await post(
      '/intents',
      { kind: 'prepare_buy', wallet: address(TRADER), token: f.bnbToken.token, amount: '0.01' },
      asApp,
    );
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const cases: [string, unknown, string, Record<string, string>?][] = [
      ['/keys', { ...signed, lable: 'bot' }, 'lable'],
      ['/keys', { ...signed, label: 'bot', budget: { quotesPerMinut: 10 } }, 'budget.quotesPerMinut'],
      ['/referrals/register', { ...signed, wallet: address(TRADER) }, 'wallet'],
      ['/build/claim', { wallet: address(TRADER), refferer: address(5) }, 'refferer'],
      [
        '/intents',
        { kind: 'prepare_buy', wallet: address(TRADER), token: f.bnbToken.token, amount: '1', slipageBps: 9 },
        'slipageBps',
        asApp,
      ],
      [
        '/intents',
        { kind: 'prepare_launch', wallet: address(TRADER), name: 'A', symbol: 'A', marketCapPair: '1', exact: 'in' },
        'exact',
        asApp,
      ],
      [`/intents/${id}/reject`, { reason: 'no', why: 'no' }, 'why', asApp],
      [`/intents/${id}/sent`, { hash: `0x${'ab'.repeat(32)}`, txHash: '0x' }, 'txHash', asApp],
    ];
    for (const [path, body, field, headers] of cases) {
      const answer = await post(path, body, headers);
      expect([answer.status, answer.body.error?.code, answer.body.error?.field], `${path} ${field}`).toEqual([
        400,
        'INVALID_BODY',
        field,
      ]);
      expect(answer.body.error.fix.length, path).toBeGreaterThan(5);
    }
    // Nothing was stored for the refused requests: the wallet has only the one created above, still pending.
    const listed = await fetch(`${f.service.url}/intents?wallet=${address(TRADER)}`, { headers: asApp });
    const { intents } = (await listed.json()) as { intents: { id: string; state: string }[] };
    expect(intents.map((intent) => [intent.id, intent.state])).toEqual([[id, 'pending']]);
  });
});

describe('dollar values beside amounts', () => {
  it('values a BNB-pair quote: BNB at the dollar pool, the token at its pool price in BNB', async () => {
    const [bnb, token] = [await bnbDollars(f.client, f.contracts), await tokenPrice(f.client, f.bnbToken)];
    for (const query of ['side=buy&amount=0.5', 'side=buy&amount=1000&exact=out', 'side=sell&amount=1000']) {
      const { status, body } = await api.get(`/quote?token=${f.bnbToken.token}&${query}`);
      expect(status, query).toBe(200);
      const buy = body.side === 'buy';
      const pairSide = (side: 'pay' | 'receive') => (side === 'pay') === buy;
      const of = (wei: string, pair: boolean) =>
        pair ? dollarsOf(BigInt(wei), bnb) : dollarsOf(BigInt(wei), token, bnb);
      expect(body.pay.usd, query).toBe(of(body.pay.wei, pairSide('pay')));
      expect(body.receive.usd, query).toBe(of(body.receive.wei, pairSide('receive')));
      expect(body.limit.usd, query).toBe(
        of(body.limit.wei, pairSide(body.limit.kind === 'minReceive' ? 'receive' : 'pay')),
      );
      expect(body.siteFee.usd, query).toBe(of(body.siteFee.wei, true));
      expect(Number(body.pay.usd), query).toBeGreaterThan(0);
    }
  });

  it('values a USDT-pair quote at par, and a build the same as its quote', async () => {
    const token = await tokenPrice(f.client, f.usdtToken);
    const { body } = await api.get(`/quote?token=${f.usdtToken.token}&side=sell&amount=5000`);
    expect(body.pay.usd).toBe(dollarsOf(BigInt(body.pay.wei), token, PAR));
    expect(body.receive.usd).toBe(dollarsOf(BigInt(body.receive.wei), PAR));
    expect(body.siteFee.usd).toBe(dollarsOf(BigInt(body.siteFee.wei), PAR));
    const bnb = await bnbDollars(f.client, f.contracts);
    const built = await post('/build/buy', { wallet: address(TRADER), token: f.bnbToken.token, amount: '0.25' });
    expect(built.status).toBe(200);
    expect(built.body.pay.usd).toBe(dollarsOf(BigInt(built.body.pay.wei), bnb));
    expect(built.body.receive.usd).toBe(
      dollarsOf(BigInt(built.body.receive.wei), await tokenPrice(f.client, f.bnbToken), bnb),
    );
    expect(built.body.limit.usd).toBe(
      dollarsOf(BigInt(built.body.limit.wei), await tokenPrice(f.client, f.bnbToken), bnb),
    );
    expect(built.body.siteFee.usd).toBe(dollarsOf(BigInt(built.body.siteFee.wei), bnb));
    expect(built.body.cost.usd).toBe(dollarsOf(BigInt(built.body.cost.maxWei), bnb));
    // A USDT trade pays its gas in BNB all the same.
    const inUsdt = await post('/build/buy', { wallet: address(TRADER), token: f.usdtToken.token, amount: '10' });
    expect(inUsdt.status, JSON.stringify(inUsdt.body)).toBe(200);
    expect(inUsdt.body.pay.usd).toBe('10');
    expect(inUsdt.body.cost.usd).toBe(dollarsOf(BigInt(inUsdt.body.cost.maxWei), bnb));
  });

  it('values a launch build: its first buy and fee in the pair, its launch fee and gas in BNB', async () => {
    const upload = await fetch(`${f.service.url}/media/image`, {
      method: 'POST',
      body: new Uint8Array(pngBytes(16)),
      headers: { 'content-type': 'image/png' },
    });
    const { url } = (await upload.json()) as { url: string };
    const body = {
      wallet: address(TRADER),
      name: 'Priced',
      symbol: 'PRC',
      marketCapPair: '30',
      firstBuy: '0.2',
      image: url,
    };
    const { status, body: build } = await post('/build/launch', body);
    expect(status, JSON.stringify(build)).toBe(200);
    const bnb = await bnbDollars(f.client, f.contracts);
    expect(build.firstBuy.spend.usd).toBe(dollarsOf(BigInt(build.firstBuy.spend.wei), bnb));
    expect(build.firstBuy.siteFee.usd).toBe(dollarsOf(BigInt(build.firstBuy.siteFee.wei), bnb));
    expect(build.launchFee.usd).toBe(dollarsOf(BigInt(build.launchFee.wei), bnb));
    expect(build.cost.usd).toBe(dollarsOf(BigInt(build.cost.maxWei), bnb));
  });

  it('answers null for every amount of a pair with no dollar price', async () => {
    const { status, body } = await api.get(`/quote?token=${unpriced}&side=buy&amount=1`);
    expect(status).toBe(200);
    expect([body.pay.usd, body.receive.usd, body.limit.usd, body.siteFee.usd]).toEqual([null, null, null, null]);
  });
});

const trade = (side: 'buy' | 'sell', amount: string) =>
  tradeThroughService(api, f.service.indexer, TRADER, f.bnbToken.token, side, amount);

describe('GET /wallets/{address}/positions and GET /tokens/{address}/trades?wallet=', () => {
  let receipts: TransactionReceipt[];

  beforeAll(async () => {
    receipts = [await trade('buy', '0.3'), await trade('buy', '0.7')];
    const held = await f.client.readContract({
      address: f.bnbToken.token,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [address(TRADER)],
    });
    receipts.push(await trade('sell', formatUnits(held / 3n, 18)));
  });

  it('values two buys and a partial sell at average cost, equal to the trades to the wei', async () => {
    const [first, second, sale] = receipts.map((receipt) => tradesIn(receipt)[0]);
    if (!first || !second || !sale) throw new Error('a trade emitted no Trade event');
    const bought = (first.tokenAmount ?? 0n) + (second.tokenAmount ?? 0n);
    const paid = (first.pairAmount ?? 0n) + (second.pairAmount ?? 0n);
    const sold = sale.tokenAmount ?? 0n;
    const got = (sale.pairAmount ?? 0n) - (sale.siteFee ?? 0n);
    const costOut = (paid * sold) / bought;
    const balance = await f.client.readContract({
      address: f.bnbToken.token,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [address(TRADER)],
    });
    expect(balance).toBe(bought - sold);
    const price = await tokenPrice(f.client, f.bnbToken);
    const value = (balance * price.num) / price.den;
    const cost = paid - costOut;
    const bnb = await bnbDollars(f.client, f.contracts);

    const { status, body } = await api.get(`/wallets/${address(TRADER).toLowerCase()}/positions`);
    expect(status).toBe(200);
    expect(body.wallet).toBe(address(TRADER));
    expect(body.positions).toHaveLength(1);
    const [position] = body.positions;
    expect(position.token).toMatchObject({ address: f.bnbToken.token, pair: { address: f.contracts.wbnb } });
    expect(position.balance.wei).toBe(balance.toString());
    expect(position.cost.wei).toBe(cost.toString());
    expect(position.realized.wei).toBe((got - costOut).toString());
    expect(position.value.wei).toBe(value.toString());
    expect(position.unrealized.wei).toBe((value - cost).toString());
    expect(position.averageCost.wei).toBe(((cost * 10n ** 18n) / balance).toString());
    expect(position.trades).toMatchObject({
      buys: 2,
      sells: 1,
      spent: { wei: paid.toString() },
      received: { wei: got.toString() },
    });
    expect(position.untracked.wei).toBe('0');
    expect(position.value.usd).toBe(dollarsOf(value, bnb));
    expect(position.cost.usd).toBe(dollarsOf(cost, bnb));
    expect(body.totals.value).toBe(position.value.usd);
    expect(body.totals.unpriced).toEqual([]);
  });

  it('holds tokens that came by transfer at no cost, and says how many', async () => {
    const before = (await api.get(`/wallets/${address(TRADER)}/positions`)).body.positions[0];
    const gift = 12_345n;
    await api.signAndSend(FIXTURE_TRADER, {
      to: f.bnbToken.token,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [address(TRADER), gift] }),
      value: '0',
    });
    const after = (await api.get(`/wallets/${address(TRADER)}/positions`)).body.positions[0];
    expect(BigInt(after.balance.wei)).toBe(BigInt(before.balance.wei) + gift);
    expect(after.untracked.wei).toBe(gift.toString());
    expect(after.cost.wei).toBe(before.cost.wei);
    expect(after.realized.wei).toBe(before.realized.wei);
  });

  it('lists nothing for a wallet that never traded here, and refuses a malformed address', async () => {
    const none = await api.get(`/wallets/${address(11)}/positions`);
    expect(none.body).toEqual({
      wallet: address(11),
      positions: [],
      totals: { value: '0', cost: '0', realized: '0', unrealized: '0', unpriced: [], pairs: [] },
    });
    const bad = await api.get('/wallets/0x123/positions');
    expect([bad.status, bad.body.error.code, bad.body.error.field]).toEqual([400, 'INVALID_ADDRESS', 'address']);
  });

  it("lists a token's trades of one wallet only, newest first, with the same limit", async () => {
    const all = await api.get(`/tokens/${f.bnbToken.token}/trades`);
    expect(new Set(all.body.trades.map((t: { trader: string }) => t.trader)).size).toBeGreaterThan(1);
    const mine = await api.get(`/tokens/${f.bnbToken.token}/trades?wallet=${address(TRADER).toLowerCase()}`);
    expect(mine.status).toBe(200);
    expect(mine.body.trades.map((t: { tx: string; side: string }) => [t.tx, t.side])).toEqual(
      [...receipts].reverse().map((receipt, i) => [receipt.transactionHash, i === 0 ? 'sell' : 'buy']),
    );
    expect(mine.body.market).toEqual(all.body.market);
    const newest = await api.get(`/tokens/${f.bnbToken.token}/trades?wallet=${address(TRADER)}&limit=1`);
    expect(newest.body.trades.map((t: { tx: string }) => t.tx)).toEqual([receipts[2]?.transactionHash]);
    const other = await api.get(`/tokens/${f.bnbToken.token}/trades?wallet=${address(FIXTURE_TRADER)}`);
    expect(other.body.trades.every((t: { trader: string }) => t.trader === address(FIXTURE_TRADER))).toBe(true);
    expect(other.body.trades.length).toBeGreaterThan(0);
    const bad = await api.get(`/tokens/${f.bnbToken.token}/trades?wallet=nope`);
    expect([bad.status, bad.body.error.code, bad.body.error.field]).toEqual([400, 'INVALID_ADDRESS', 'wallet']);
  });
});
