import type { Address } from 'viem';
import type { Intent, IntentSource } from '../../../src-main/services/intents';
import { apiBase } from '../api/apiBase';
import { CSRF_HEADER } from '../api/csrfHeader';
import { requestJson } from '../api/getJson';
import { postJson } from '../api/postJson';
import { appRunToken } from '../wallet/appChannel';

export type { Intent, IntentSource };

const enc = encodeURIComponent;

/**
 * A wallet's requests answer only the app, a key of the wallet, or its signed-in browser: this page sends the run's
 * token when it has it, and the CSRF header that lets its sign-in count otherwise (reads included).
 */
async function credentials(): Promise<Record<string, string>> {
  const token = await appRunToken();
  return { ...CSRF_HEADER, ...(token ? { 'x-app-token': token } : {}) };
}

/** The wallet's prepared requests, newest first. */
export async function listIntents(wallet: Address): Promise<Intent[]> {
  const url = `${apiBase}/intents?wallet=${enc(wallet)}`;
  return (await requestJson<{ intents: Intent[] }>(url, { headers: await credentials() })).intents;
}

/** Builds the request exactly as its build endpoint would; the answer's `build` is what goes to review. */
export async function buildIntent(id: string): Promise<Intent> {
  return postJson(`${apiBase}/intents/${enc(id)}/build`, {}, await credentials());
}

export async function rejectIntent(id: string): Promise<Intent> {
  return postJson(`${apiBase}/intents/${enc(id)}/reject`, { reason: 'turned down in the app' }, await credentials());
}

/** Tells the bot's side which transaction fulfilled the request; the service checks it on chain. */
export async function reportIntentSent(id: string, hash: string): Promise<Intent> {
  return postJson(`${apiBase}/intents/${enc(id)}/sent`, { hash }, await credentials());
}
