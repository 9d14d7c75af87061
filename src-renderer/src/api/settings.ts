import { answerOf, api } from './client';
import type { components } from './schema';

export type Settings = components['schemas']['Settings'];

export function fetchSettings(): Promise<Settings> {
  return answerOf(api.GET('/settings'));
}
