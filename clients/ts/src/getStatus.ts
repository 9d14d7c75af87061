import type { CompanionApi } from './createCompanion';
import { dataOrThrow } from './dataOrThrow';
import type { components } from './schema';

export type Status = components['schemas']['Status'];

/**
 * GET /status: the chain (its block time, the devnet's cadence), the indexer's progress and the service's health.
 *
 * @example const { chain } = await getStatus(companion.api); // chain.blockTimeMs
 */
export function getStatus(api: CompanionApi): Promise<Status> {
  return dataOrThrow(api.GET('/status'));
}
