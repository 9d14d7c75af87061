import type { Address } from 'viem';
import type { CreatedKey, KeyEntry } from '../../../src-main/services/apiKeys';
import { apiBase } from '../api/apiBase';
import { getJson } from '../api/getJson';
import { deleteJson, postJson } from '../api/postJson';
import type { SignedChallenge } from './signChallenge';

export type { CreatedKey, KeyEntry };

/** The service refuses longer labels (MAX_LABEL_CHARS in main); checked here so no signature is spent on one. */
export const MAX_KEY_LABEL_CHARS = 64;

export const keyChallengeUrl = (wallet: Address): string =>
  `${apiBase}/keys/challenge?address=${encodeURIComponent(wallet)}`;

/** The signed-in wallet's keys; naming the wallet makes a session of another wallet answer SESSION_WALLET_MISMATCH. */
export function listKeys(wallet: Address): Promise<{ wallet: Address; keys: KeyEntry[] }> {
  return getJson(`${apiBase}/keys?wallet=${encodeURIComponent(wallet)}`);
}

/** Creates a key for the wallet that signed the challenge; the answer holds the whole key, this once. */
export function createKey(signed: SignedChallenge, label: string): Promise<CreatedKey> {
  return postJson(`${apiBase}/keys`, { ...signed, label });
}

export function revokeKey(id: string): Promise<{ key: KeyEntry }> {
  return deleteJson(`${apiBase}/keys/${encodeURIComponent(id)}`);
}
