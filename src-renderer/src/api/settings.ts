import type { components } from '../../../clients/ts/src/index';
import { answerOf, api } from './client';

export type Settings = components['schemas']['Settings'];

export function fetchSettings(): Promise<Settings> {
  return answerOf(api.GET('/settings'));
}
