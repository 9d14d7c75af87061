import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { PositionsQuerySchema, PositionsSchema, WalletParamsSchema } from '../../../src-shared/schema/positions';
import { formatDecimalAmount } from '../../core/units/decimalAmount';
import { USD_DECIMALS } from '../../core/units/dollarValue';
import { type Position, type Positions, signedUsdMicros } from '../../services/positions';
import type { TokenFacts } from '../../services/tokenRegistry';
import type { AppEnv } from '../env';
import { errorResponses } from '../schemas';
import { imageLink } from './launchesRoute';

const route = createRoute({
  method: 'get',
  path: '/wallets/{address}/positions',
  summary: 'The tokens launched here that a wallet holds, valued, with their cost and profit',
  description:
    "An addition to the spec. Every token launched here that the wallet traded through the router (a launch's first " +
    "buy counts as its creator's buy), with the balance read from the chain at one block, valued at the pool's price " +
    'now (`value`: the balance at the mid price, before fees and price impact), and its cost and profit from the ' +
    "wallet's indexed trades, by average cost, exactly to the wei: in chain order each buy adds its tokens and what " +
    'it paid (site fee included) to the cost; each sale takes out the cost of what it sold at the average (cost × ' +
    'sold ÷ held, rounded down, the remainder staying with what is left), and realizes what it got after the site ' +
    'fee less that cost; tokens sold beyond what the buys left carry no cost. Then the balance: tokens beyond what ' +
    'the trades leave came another way (a transfer in, a share of a first buy), which the index does not follow yet, ' +
    'and are held at no cost; tokens missing from it left without a sale here (a transfer out) and take their share ' +
    'of the cost with them, realizing nothing (`untracked` says which and how many). `unrealized` is value − cost. ' +
    'Amounts are in the pair currency; dollars at its price now (BNB by the WBNB/USDT pool, USDT at par), null when ' +
    'it has none. Tokens the wallet never traded here are not listed. A trade shows once the indexer has its block. ' +
    "`change24h` is the token's price change over the last 24 hours, from its latest 100 indexed trades of every " +
    'wallet exactly as the token pages work it out (the pool price now against the last trade before the window, or ' +
    "else the window's first trade). `totals` sums the positions listed: in dollars over the priced ones, and per " +
    'pair currency in `totals.pairs`, to the wei (bigint sums of the rows, so the totals equal the sum of the rows; ' +
    "each pair's `usd` the sum of its rows' `usd`).",
  request: { params: WalletParamsSchema, query: PositionsQuerySchema },
  responses: {
    200: { description: 'Positions', content: { 'application/json': { schema: PositionsSchema } } },
    ...errorResponses(400, 503),
  },
});

/** A pair amount as the API writes it: whole units, wei, and dollars (null unpriced). */
function pairAmount(wei: bigint, decimals: number, usdMicros: bigint | null) {
  return {
    amount: formatDecimalAmount(wei, decimals),
    wei: wei.toString(),
    usd: usdMicros === null ? null : formatDecimalAmount(usdMicros, USD_DECIMALS),
  };
}

/** A token as the answers name it (TokenRefSchema). */
export function tokenRef(token: TokenFacts) {
  return {
    address: token.address,
    symbol: token.symbol,
    name: token.name,
    decimals: token.decimals,
    pool: token.pool,
    pair: { address: token.pair.address, symbol: token.pair.symbol, decimals: token.pair.decimals },
  };
}

function positionJson(position: Position, origin: string) {
  const { token, basis, pairUsd, day } = position;
  const pair = (wei: bigint) => pairAmount(wei, token.pair.decimals, signedUsdMicros(wei, pairUsd));
  const tokens = (wei: bigint) => ({ amount: formatDecimalAmount(wei, token.decimals), wei: wei.toString() });
  return {
    token: { ...tokenRef(token), image: imageLink(position.image, origin) },
    balance: tokens(basis.balance),
    price: pair(position.priceWei),
    value: pair(position.value),
    cost: pair(basis.cost),
    averageCost: position.averageCost === null ? null : pair(position.averageCost),
    realized: pair(basis.realized),
    unrealized: pair(position.unrealized),
    trades: { buys: basis.buys, sells: basis.sells, spent: pair(basis.spent), received: pair(basis.received) },
    untracked: tokens(basis.untracked),
    change24h: {
      pct: day.changePct,
      fromPriceWei: day.referencePriceWei === null ? null : day.referencePriceWei.toString(),
      complete: day.complete,
    },
  };
}

/** The four figures a total sums, as bigints. */
interface Sums {
  value: bigint;
  cost: bigint;
  realized: bigint;
  unrealized: bigint;
}

const FIGURES = ['value', 'cost', 'realized', 'unrealized'] as const;
const zero = (): Sums => ({ value: 0n, cost: 0n, realized: 0n, unrealized: 0n });

/** One pair currency's positions summed: wei to the wei, dollars over its priced positions (null when none is). */
interface PairSum {
  pair: Position['token']['pair'];
  count: number;
  wei: Sums;
  usd: Sums | null;
}

/**
 * The positions listed, summed: per pair currency in wei, and in dollars as the sums of the rows' own dollar figures
 * (each rounded toward zero as its row writes it), so every total is the sum of the rows shown.
 */
function totalsJson(positions: readonly Position[]) {
  const byPair = new Map<string, PairSum>();
  const usd = zero();
  const unpriced: string[] = [];
  for (const position of positions) {
    const { pair } = position.token;
    const total = byPair.get(pair.address) ?? { pair, count: 0, wei: zero(), usd: null };
    byPair.set(pair.address, total);
    total.count++;
    const figures = figuresOf(position);
    for (const key of FIGURES) total.wei[key] += figures[key];
    if (position.pairUsd === null) {
      unpriced.push(position.token.address);
      continue;
    }
    total.usd ??= zero();
    for (const key of FIGURES) {
      const micros = signedUsdMicros(figures[key], position.pairUsd) as bigint;
      total.usd[key] += micros;
      usd[key] += micros;
    }
  }
  const text = (micros: bigint) => formatDecimalAmount(micros, USD_DECIMALS);
  const pairs = [...byPair.values()]
    .sort((a, b) => (a.pair.address < b.pair.address ? -1 : 1))
    .map(({ pair, count, wei, usd }) => {
      const amount = (key: keyof Sums) => pairAmount(wei[key], pair.decimals, usd === null ? null : usd[key]);
      return {
        pair: { address: pair.address, symbol: pair.symbol, decimals: pair.decimals },
        positions: count,
        value: amount('value'),
        cost: amount('cost'),
        realized: amount('realized'),
        unrealized: amount('unrealized'),
      };
    });
  return {
    value: text(usd.value),
    cost: text(usd.cost),
    realized: text(usd.realized),
    unrealized: text(usd.unrealized),
    unpriced,
    pairs,
  };
}

const figuresOf = (position: Position): Sums => ({
  value: position.value,
  cost: position.basis.cost,
  realized: position.basis.realized,
  unrealized: position.unrealized,
});

/** GET /wallets/{address}/positions: the calculation is the Positions service's, for every page that shows it. */
export function positionsRoute(app: OpenAPIHono<AppEnv>, positions: Positions): void {
  app.openapi(route, async (c) => {
    const wallet = c.req.valid('param').address;
    const held = await positions.of(wallet, { closed: c.req.valid('query').closed });
    const origin = new URL(c.req.url).origin;
    const rows = held.map((position) => positionJson(position, origin));
    return c.json({ wallet, positions: rows, totals: totalsJson(held) }, 200);
  });
}
