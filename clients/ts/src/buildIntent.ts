import type { LaunchBuild } from './buildLaunch';
import type { TradeBuild } from './buildTrade';
import type { CompanionApi } from './createCompanion';
import type { Intent } from './createIntent';
import { dataOrThrow } from './dataOrThrow';

/**
 * A built prepared request: its `build` is the answer of the build endpoint of its kind (the document leaves it
 * untyped; the service builds it "exactly as the matching build endpoint would").
 */
export type BuiltIntent = Intent &
  ({ kind: 'prepare_buy' | 'prepare_sell'; build: TradeBuild } | { kind: 'prepare_launch'; build: LaunchBuild });

/**
 * POST /intents/{id}/build: builds a prepared request exactly as its build endpoint would, for the app or a key of
 * the request's own wallet; send `build` with sendBuild, then reportSent.
 *
 * @example const { id, build } = await buildIntent(companion.api, intentId);
 */
export async function buildIntent(api: CompanionApi, id: string): Promise<BuiltIntent> {
  // The document declares no body here, but the service reads every POST as a JSON object.
  const init = { params: { path: { id } }, body: {} as never };
  return (await dataOrThrow(api.POST('/intents/{id}/build', init))) as BuiltIntent;
}
