import type { CompanionApi } from './createCompanion';
import type { Intent } from './createIntent';
import { dataOrThrow } from './dataOrThrow';

/**
 * POST /intents/{id}/sent: reports the hash of the transaction that fulfilled a prepared request, for a bot that sent
 * the build itself. The service checks it on chain (NOT_SEEN_YET is retryable: the chain has not seen it yet).
 *
 * @example const intent = await reportSent(companion.api, id, sent.hash);
 */
export function reportSent(api: CompanionApi, id: string, hash: string): Promise<Intent> {
  return dataOrThrow(api.POST('/intents/{id}/sent', { params: { path: { id } }, body: { hash } }));
}
