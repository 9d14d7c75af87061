import type { CompanionApi } from './createCompanion';
import { dataOrThrow } from './dataOrThrow';
import type { components } from './schema';

export type Settings = components['schemas']['Settings'];

/**
 * GET /settings: network, contracts, fee rates, pairs and limits. Read it first.
 *
 * @example const { chainId, limits } = await getSettings(companion.api);
 */
export function getSettings(api: CompanionApi): Promise<Settings> {
  return dataOrThrow(api.GET('/settings'));
}
