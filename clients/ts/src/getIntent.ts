import type { CompanionApi } from './createCompanion';
import type { Intent } from './createIntent';
import { dataOrThrow } from './dataOrThrow';

/**
 * GET /intents/{id}: a prepared request and its state now (a sent one is checked against the chain).
 *
 * @example const { state, tx } = await getIntent(companion.api, id);
 */
export function getIntent(api: CompanionApi, id: string): Promise<Intent> {
  return dataOrThrow(api.GET('/intents/{id}', { params: { path: { id } } }));
}
