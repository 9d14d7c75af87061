import type { components } from '../../../clients/ts/src/index';
import { answerOf, api } from './client';

/** The spec's Launch list item (GET /launches). */
export type LaunchListItem = components['schemas']['LaunchListItem'];

/** `next`: send as `after` to get only newer launches; null when the page is empty (keep the `after` sent). */
export type LaunchPage = components['schemas']['LaunchPage'];

/**
 * The newest launches (newest first), or with `after` every launch since that block (oldest first); `limit` of them
 * at most (the service's default page without it).
 */
export function fetchLaunches(after?: number, limit?: number): Promise<LaunchPage> {
  const query = { ...(after === undefined ? {} : { after }), ...(limit === undefined ? {} : { limit }) };
  return answerOf(api.GET('/launches', { params: { query } }));
}
