import { apiBase } from './apiBase';
import { getJson } from './getJson';

/** The spec's Launch list item (GET /launches). */
export interface LaunchListItem {
  token: string;
  symbol: string;
  name: string;
  creator: string;
  pool: string;
  pair: string;
  feeTier: number;
  image: string | null;
  launchedAt: string;
  tx: string;
  block: number;
}

export interface LaunchPage {
  launches: LaunchListItem[];
  /** Send as `after` to get only newer launches; null when the page is empty (keep the `after` sent). */
  next: number | null;
}

/** The newest launches (newest first), or with `after` every launch since that block (oldest first). */
export function fetchLaunches(after?: number): Promise<LaunchPage> {
  return getJson<LaunchPage>(after === undefined ? `${apiBase}/launches` : `${apiBase}/launches?after=${after}`);
}
