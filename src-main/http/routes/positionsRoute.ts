import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { PositionsQuerySchema, PositionsSchema, WalletParamsSchema } from '../../../src-shared/schema/positions';
import { formatDecimalAmount } from '../../core/units/decimalAmount';
import { type MicroPrice, USD_DECIMALS } from '../../core/units/dollarValue';
import { type Position, type Positions, signedUsdMicros } from '../../services/positions';
import type { TokenFacts } from '../../services/tokenRegistry';
import type { AppEnv } from '../env';
import { errorResponses } from '../schemas';

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
    'it has none. Tokens the wallet never traded here are not listed. A trade shows once the indexer has its block.',
  request: { params: WalletParamsSchema, query: PositionsQuerySchema },
  responses: {
    200: { description: 'Positions', content: { 'application/json': { schema: PositionsSchema } } },
    ...errorResponses(400, 503),
  },
});

/** A dollar value as the API writes it (rounded toward zero), or null unpriced. */
function signedUsdText(pairWei: bigint, price: MicroPrice | null): string | null {
  const micros = signedUsdMicros(pairWei, price);
  return micros === null ? null : formatDecimalAmount(micros, USD_DECIMALS);
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

function positionJson(position: Position) {
  const { token, basis, pairUsd } = position;
  const pair = (wei: bigint) => ({
    amount: formatDecimalAmount(wei, token.pair.decimals),
    wei: wei.toString(),
    usd: signedUsdText(wei, pairUsd),
  });
  const tokens = (wei: bigint) => ({ amount: formatDecimalAmount(wei, token.decimals), wei: wei.toString() });
  return {
    token: tokenRef(token),
    balance: tokens(basis.balance),
    price: pair(position.priceWei),
    value: pair(position.value),
    cost: pair(basis.cost),
    averageCost: position.averageCost === null ? null : pair(position.averageCost),
    realized: pair(basis.realized),
    unrealized: pair(position.unrealized),
    trades: { buys: basis.buys, sells: basis.sells, spent: pair(basis.spent), received: pair(basis.received) },
    untracked: tokens(basis.untracked),
  };
}

/** The positions' dollar figures summed, over the priced ones; the others named. */
function totalsJson(positions: readonly Position[]) {
  const sum = { value: 0n, cost: 0n, realized: 0n, unrealized: 0n };
  const unpriced: string[] = [];
  for (const position of positions) {
    if (position.pairUsd === null) {
      unpriced.push(position.token.address);
      continue;
    }
    const micros = (wei: bigint) => signedUsdMicros(wei, position.pairUsd) as bigint;
    sum.value += micros(position.value);
    sum.cost += micros(position.basis.cost);
    sum.realized += micros(position.basis.realized);
    sum.unrealized += micros(position.unrealized);
  }
  const text = (micros: bigint) => formatDecimalAmount(micros, USD_DECIMALS);
  return {
    value: text(sum.value),
    cost: text(sum.cost),
    realized: text(sum.realized),
    unrealized: text(sum.unrealized),
    unpriced,
  };
}

/** GET /wallets/{address}/positions: the calculation is the Positions service's, for every page that shows it. */
export function positionsRoute(app: OpenAPIHono<AppEnv>, positions: Positions): void {
  app.openapi(route, async (c) => {
    const wallet = c.req.valid('param').address;
    const held = await positions.of(wallet, { closed: c.req.valid('query').closed });
    return c.json({ wallet, positions: held.map(positionJson), totals: totalsJson(held) }, 200);
  });
}
