import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { Address } from 'viem';
import { type TradeBody, TradeBodySchema, TradeBuildSchema } from '../../../src-shared/schema/trade';
import { formatDecimalAmount } from '../../core/units/decimalAmount';
import { pairMicroPrice, usdText } from '../../core/units/dollarValue';
import type { BuildService } from '../../services/buildService';
import type { TokenRegistry } from '../../services/tokenRegistry';
import type { AppEnv } from '../env';
import { errorResponses } from '../schemas';
import { tradeJson, tradeRequest } from '../tradeInput';

function routeFor(side: 'buy' | 'sell') {
  return createRoute({
    method: 'post',
    path: `/build/${side}`,
    summary:
      side === 'buy'
        ? 'Build an unsigned buy, simulated from the wallet'
        : 'Build an unsigned sell, simulated from the wallet',
    request: { body: { content: { 'application/json': { schema: TradeBodySchema } }, required: true } },
    responses: {
      200: { description: 'Trade (build fields)', content: { 'application/json': { schema: TradeBuildSchema } } },
      // 409: ALREADY_BOUND, a wallet bound to one referrer building with another.
      ...errorResponses(400, 409, 413, 422, 429, 503),
    },
  });
}

/**
 * Builds a trade from a body read by TradeBodySchema, answered as the spec's Trade. The API key's wallet, when a key
 * was sent, is offered as the referrer if the body names none (null names nobody).
 */
export async function buildTradeJson(
  tokens: TokenRegistry,
  builds: BuildService,
  side: 'buy' | 'sell',
  body: TradeBody,
  keyWallet?: Address,
) {
  const input = await tradeRequest({ ...body, side }, tokens);
  const build = await builds.buildTrade({
    ...input,
    wallet: body.wallet,
    referrer: body.referrer ?? null,
    ...(keyWallet && body.referrer === undefined ? { keyReferrer: keyWallet } : {}),
  });
  return {
    ...tradeJson(build.quote),
    wallet: build.wallet,
    referrer: build.referrer,
    ...(build.referrerNote ? { referrerNote: build.referrerNote } : {}),
    requires: build.requires,
    tx: build.tx,
    simulation: build.simulation,
    cost: {
      gasPriceWei: build.cost.gasPriceWei.toString(),
      maxWei: build.cost.maxWei.toString(),
      max: formatDecimalAmount(build.cost.maxWei, 18),
      usd: usdText(build.cost.maxWei, pairMicroPrice(build.bnbUsd)),
    },
    expiresAt: build.expiresAt.toISOString(),
    explain: build.explain,
  };
}

export function buildTradeRoute(app: OpenAPIHono<AppEnv>, tokens: TokenRegistry, builds: BuildService): void {
  for (const side of ['buy', 'sell'] as const) {
    app.openapi(routeFor(side), async (c) =>
      c.json(await buildTradeJson(tokens, builds, side, c.req.valid('json'), c.get('apiKey')?.wallet), 200),
    );
  }
}
