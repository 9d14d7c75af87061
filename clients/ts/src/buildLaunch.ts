import type { CompanionApi } from './createCompanion';
import { dataOrThrow } from './dataOrThrow';
import type { components, paths } from './schema';

export type LaunchBuild = components['schemas']['LaunchBuild'];

/** The body of POST /build/launch. */
export type LaunchBody = paths['/build/launch']['post']['requestBody']['content']['application/json'];

/**
 * POST /build/launch: an unsigned launch; `token` is the new token's address before anything is sent.
 *
 * @example const build = await buildLaunch(companion.api, { wallet, name: 'Cat', symbol: 'CAT', marketCapPair: '30', image });
 */
export function buildLaunch(api: CompanionApi, body: LaunchBody): Promise<LaunchBuild> {
  return dataOrThrow(api.POST('/build/launch', { body }));
}
