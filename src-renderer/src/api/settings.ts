import type { Settings } from '../../../src-main/services/settingsService';
import { apiBase } from './apiBase';
import { getJson } from './getJson';

export type { Settings };

export function fetchSettings(): Promise<Settings> {
  return getJson<Settings>(`${apiBase}/settings`);
}
