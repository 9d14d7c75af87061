import type { CompanionApi } from './createCompanion';
import { dataOrThrow } from './dataOrThrow';
import type { components, paths } from './schema';

export type TradeBuild = components['schemas']['TradeBuild'];

/** The body of POST /build/buy and /build/sell: wallet, token, amount, and optional exact, slippageBps, referrer. */
export type TradeBody = paths['/build/buy']['post']['requestBody']['content']['application/json'];

/**
 * POST /build/buy: an unsigned buy for `wallet`, simulated from it; send it with sendBuild.
 *
 * @example const build = await buildBuy(companion.api, { wallet, token, amount: '0.1', slippageBps: 100 });
 */
export function buildBuy(api: CompanionApi, body: TradeBody): Promise<TradeBuild> {
  return dataOrThrow(api.POST('/build/buy', { body }));
}

/**
 * POST /build/sell: an unsigned sell for `wallet`; its `requires` lists the approvals a first sell needs.
 *
 * @example const build = await buildSell(companion.api, { wallet, token, amount: '5000' });
 */
export function buildSell(api: CompanionApi, body: TradeBody): Promise<TradeBuild> {
  return dataOrThrow(api.POST('/build/sell', { body }));
}
