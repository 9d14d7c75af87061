import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { Address } from 'viem';
import { TradeBodySchema, TradeBuildSchema } from '../../../src-shared/schema/trade';
import { formatDecimalAmount } from '../../core/units/decimalAmount';
import { readAddress } from '../../core/units/readAddress';
import type { BuildService } from '../../services/buildService';
import type { TokenRegistry } from '../../services/tokenRegistry';
import type { AppEnv } from '../env';
import { errorResponses } from '../schemas';
import { readTradeInput, tradeJson } from '../tradeInput';

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
      ...errorResponses(400, 413, 422, 429, 503),
    },
  });
}

/**
 * Builds a trade from a request body as POST /build/buy and /build/sell take it, answered as the spec's Trade. The
 * API key's wallet, when a key was sent, is offered as the referrer if the body names none.
 */
export async function buildTradeJson(
  tokens: TokenRegistry,
  builds: BuildService,
  side: 'buy' | 'sell',
  body: Record<string, unknown>,
  keyWallet?: Address,
) {
  const wallet = readAddress(body.wallet, 'wallet');
  const referrer =
    body.referrer === undefined || body.referrer === null ? null : readAddress(body.referrer, 'referrer');
  const input = await readTradeInput({ ...body, side } as never, tokens);
  const build = await builds.buildTrade({
    ...input,
    wallet,
    referrer,
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
    },
    expiresAt: build.expiresAt.toISOString(),
    explain: build.explain,
  };
}

export function buildTradeRoute(app: OpenAPIHono<AppEnv>, tokens: TokenRegistry, builds: BuildService): void {
  for (const side of ['buy', 'sell'] as const) {
    // Documented, but read by our own body rules (any Content-Type, spec error codes) rather than the validator.
    app.openAPIRegistry.registerPath(routeFor(side));
    app.post(`/build/${side}`, async (c) =>
      c.json(await buildTradeJson(tokens, builds, side, c.get('body'), c.get('apiKey')?.wallet), 200),
    );
  }
}
