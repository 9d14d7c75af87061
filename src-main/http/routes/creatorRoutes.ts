import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { CollectBodySchema, CollectBuildSchema, CreatorLaunchesSchema } from '../../../src-shared/schema/creator';
import { WalletParamsSchema } from '../../../src-shared/schema/positions';
import { formatDecimalAmount } from '../../core/units/decimalAmount';
import { type MicroPrice, pairMicroPrice, usdText } from '../../core/units/dollarValue';
import type { CollectBuilds } from '../../services/collectBuild';
import type { CreatorLaunch, CreatorLaunches } from '../../services/creatorLaunches';
import type { AppEnv } from '../env';
import { errorResponses } from '../schemas';
import { tokenRef } from './positionsRoute';

const collectRoute = createRoute({
  method: 'post',
  path: '/build/collect',
  summary: "Build an unsigned collect of a launch's fees, simulated from the wallet",
  description:
    "An addition to the spec. Builds the launch factory's `collect(token)`: it takes the fees the launch's locked " +
    "positions earned, pays the royalty (the fees less the burn share) to the launch's `royaltyTo` or its creator, " +
    'burns the burn share of the token fees, and with the burn share of the pair fees (plus what was pending) buys ' +
    "the token back and burns it, never above the pool's recent average price plus half a tick spacing; what that " +
    'leaves stays pending in the factory for a later collect. Anyone may send it: the sender pays only the gas. The ' +
    'call is simulated from `wallet` at the latest block (a revert is `SIMULATION_FAILED`); on the devnet it is also ' +
    'sent on a throw-away copy of the chain, and `outcome` is read from its `Collected` event (`simulated` true). ' +
    'Elsewhere the fees and royalty are exact from the positions and the buy-back is given as what it may spend. ' +
    '`explain` says who gains what. Errors: `INVALID_ADDRESS` (wallet, token), `INVALID_BODY` (a field it does not ' +
    'know), `UNKNOWN_TOKEN` (not launched here), `INSUFFICIENT_BALANCE` (the gas), `SIMULATION_FAILED`, ' +
    '`CHAIN_UNREACHABLE`.',
  request: { body: { content: { 'application/json': { schema: CollectBodySchema } }, required: true } },
  responses: {
    200: { description: 'Collect build', content: { 'application/json': { schema: CollectBuildSchema } } },
    ...errorResponses(400, 413, 422, 429, 503),
  },
});

const launchesRoute = createRoute({
  method: 'get',
  path: '/wallets/{address}/launches',
  summary: 'The launches a wallet created, with what their liquidity earned and where it went',
  description:
    'An addition to the spec. Every token the wallet launched here (newest first), read at one block: the fees its ' +
    "locked liquidity earned in the pair currency and in the token (`collected`: the factory's indexed `Collected` " +
    "events; `uncollected`: read from the pool's positions the factory holds, exactly what a collect sent now would " +
    "take), the royalty those collects paid and the tokens they burned (burn share and buy-back), the factory's " +
    '`buybackPending`, and each first-buy recipient with what the first buy paid it (from the launch receipt) and its ' +
    "balance now. Dollars at the pair's dollar price now (tokens at the pool's price times that); null when it has " +
    'none. A launch or collect shows once the indexer has its block. Errors: `INVALID_ADDRESS`, `CHAIN_UNREACHABLE`.',
  request: { params: WalletParamsSchema },
  responses: {
    200: { description: 'Creator launches', content: { 'application/json': { schema: CreatorLaunchesSchema } } },
    ...errorResponses(400, 503),
  },
});

function amountOf(currency: { decimals: number; symbol: string }, price: MicroPrice | null) {
  return (wei: bigint) => ({
    amount: formatDecimalAmount(wei, currency.decimals),
    wei: wei.toString(),
    symbol: currency.symbol,
    usd: usdText(wei, price),
  });
}

function launchJson(entry: CreatorLaunch) {
  const { token, state, collected, launch } = entry;
  const pair = amountOf(token.pair, entry.pairUsd);
  const tokens = amountOf(token, entry.tokenUsd);
  return {
    token: { ...tokenRef(token), image: launch.image },
    launchedAt: new Date(launch.timestamp * 1000).toISOString(),
    royalty: { recipient: state.recipient, burnBps: state.burnBps },
    fees: {
      pair: {
        collected: pair(collected.pairFees),
        uncollected: pair(state.uncollected.pair),
        total: pair(collected.pairFees + state.uncollected.pair),
      },
      token: {
        collected: tokens(collected.tokenFees),
        uncollected: tokens(state.uncollected.token),
        total: tokens(collected.tokenFees + state.uncollected.token),
      },
    },
    royaltyPaid: { pair: pair(collected.pairToRoyalty), tokens: tokens(collected.tokenToRoyalty) },
    burned: tokens(collected.tokensBurned),
    buybackPending: pair(state.buybackPending),
    firstBuy: entry.firstBuy.map((holder) => ({
      wallet: holder.wallet,
      received: tokens(holder.received),
      balance: tokens(holder.balance),
    })),
  };
}

/** POST /build/collect and GET /wallets/{address}/launches: a creator's dashboard and its Collect. */
export function creatorRoutes(app: OpenAPIHono<AppEnv>, collects: CollectBuilds, creators: CreatorLaunches): void {
  app.openapi(collectRoute, async (c) => {
    const body = c.req.valid('json');
    const build = await collects.build(body.wallet, body.token);
    const { token, outcome: o } = build;
    const pair = amountOf(token.pair, build.pairUsd);
    const tokens = amountOf(token, build.tokenUsd);
    return c.json(
      {
        wallet: build.wallet,
        token: tokenRef(token),
        recipient: o.recipient,
        outcome: {
          simulated: o.simulated,
          pairFees: pair(o.pairFees),
          tokenFees: tokens(o.tokenFees),
          royalty: { pair: pair(o.pairToRoyalty), tokens: tokens(o.tokenToRoyalty) },
          burned: tokens(o.tokensBurned),
          buyback: {
            pendingBefore: pair(o.pendingBefore),
            budget: pair(o.buybackBudget),
            pendingAfter: o.pendingAfter === null ? null : pair(o.pendingAfter),
          },
        },
        tx: build.tx,
        simulation: { ran: true, ok: true },
        cost: {
          gasPriceWei: build.cost.gasPriceWei.toString(),
          maxWei: build.cost.maxWei.toString(),
          max: formatDecimalAmount(build.cost.maxWei, 18),
          usd: usdText(build.cost.maxWei, pairMicroPrice(build.bnbUsd)),
        },
        explain: build.explain,
      },
      200,
    );
  });
  app.openapi(launchesRoute, async (c) => {
    const wallet = c.req.valid('param').address;
    const { block, launches } = await creators.of(wallet);
    return c.json({ wallet, block: block.toString(), launches: launches.map(launchJson) }, 200);
  });
}
