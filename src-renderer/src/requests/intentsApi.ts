import type { Address } from 'viem';
import type { Intent } from '../../../src-main/services/intents';
import { apiBase } from '../api/apiBase';
import { getJson } from '../api/getJson';
import { postJson } from '../api/postJson';

export type { Intent };

const enc = encodeURIComponent;

/** The wallet's prepared requests, newest first. */
export async function listIntents(wallet: Address): Promise<Intent[]> {
  return (await getJson<{ intents: Intent[] }>(`${apiBase}/intents?wallet=${enc(wallet)}`)).intents;
}

/** Builds the request exactly as its build endpoint would; the answer's `build` is what goes to review. */
export function buildIntent(id: string): Promise<Intent> {
  return postJson(`${apiBase}/intents/${enc(id)}/build`, {});
}

export function rejectIntent(id: string): Promise<Intent> {
  return postJson(`${apiBase}/intents/${enc(id)}/reject`, { reason: 'turned down in the app' });
}

/** Tells the bot's side which transaction fulfilled the request; the service checks it on chain. */
export function reportIntentSent(id: string, hash: string): Promise<Intent> {
  return postJson(`${apiBase}/intents/${enc(id)}/sent`, { hash });
}
