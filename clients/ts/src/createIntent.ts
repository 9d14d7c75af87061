import type { LaunchBody } from './buildLaunch';
import type { TradeBody } from './buildTrade';
import type { CompanionApi } from './createCompanion';
import { dataOrThrow } from './dataOrThrow';
import type { components } from './schema';

export type Intent = components['schemas']['Intent'];

/** A prepared request: its kind, and the body of the build it prepares. */
export type IntentBody =
  | ({ kind: 'prepare_buy' | 'prepare_sell' } & TradeBody)
  | ({ kind: 'prepare_launch' } & LaunchBody);

/**
 * POST /intents: a prepared request for the person to review and sign in the app (needs an API key); it starts
 * pending. Follow it with waitForIntent.
 *
 * @example const { id } = await createIntent(companion.api, { kind: 'prepare_buy', wallet, token, amount: '0.1' });
 */
export function createIntent(api: CompanionApi, body: IntentBody): Promise<Intent> {
  return dataOrThrow(api.POST('/intents', { body }));
}
