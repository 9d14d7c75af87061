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
const credentials = (): Record<string, string> => ({
  ...CSRF_HEADER,
  ...(appRunToken ? { 'x-app-token': appRunToken } : {}),
});

/** The wallet's prepared requests, newest first. */
export async function listIntents(wallet: Address): Promise<Intent[]> {
  const url = `${apiBase}/intents?wallet=${enc(wallet)}`;
  return (await requestJson<{ intents: Intent[] }>(url, { headers: credentials() })).intents;
}

/** Builds the request exactly as its build endpoint would; the answer's `build` is what goes to review. */
export function buildIntent(id: string): Promise<Intent> {
  return postJson(`${apiBase}/intents/${enc(id)}/build`, {}, credentials());
}

export function rejectIntent(id: string): Promise<Intent> {
  return postJson(`${apiBase}/intents/${enc(id)}/reject`, { reason: 'turned down in the app' }, credentials());
}

/** Tells the bot's side which transaction fulfilled the request; the service checks it on chain. */
export function reportIntentSent(id: string, hash: string): Promise<Intent> {
  return postJson(`${apiBase}/intents/${enc(id)}/sent`, { hash }, credentials());
}
