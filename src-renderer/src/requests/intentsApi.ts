import type { Address } from 'viem';
import type { components } from '../../../clients/ts/src/index';
import { answerOf, api } from '../api/client';

export type Intent = components['schemas']['Intent'];
export type IntentSource = components['schemas']['IntentSource'];

/*
 * A wallet's requests answer only the app, a key of the wallet, or its signed-in browser: the client sends the run's
 * token when this page has it, beside the CSRF header every request carries (so its sign-in counts otherwise).
 */

/** The wallet's prepared requests, newest first. */
export async function listIntents(wallet: Address): Promise<Intent[]> {
  return (await answerOf(api.GET('/intents', { params: { query: { wallet } } }))).intents;
}

/** Builds the request exactly as its build endpoint would; the answer's `build` is what goes to review. */
export async function buildIntent(id: string): Promise<Intent> {
  // The document declares no body here, but the service reads every POST as a JSON object (jsonBody middleware).
  const init = { params: { path: { id } }, body: {} as never };
  return answerOf(api.POST('/intents/{id}/build', init));
}

/** Turns the request down; the reason (as typed, or a default) is what the bot reads in the request's `reason`. */
export async function rejectIntent(id: string, reason: string): Promise<Intent> {
  const body = { reason: reason.trim() || 'turned down in the app' };
  return answerOf(api.POST('/intents/{id}/reject', { params: { path: { id } }, body }));
}

/** Tells the bot's side which transaction fulfilled the request; the service checks it on chain. */
export async function reportIntentSent(id: string, hash: string): Promise<Intent> {
  return answerOf(api.POST('/intents/{id}/sent', { params: { path: { id } }, body: { hash } }));
}
