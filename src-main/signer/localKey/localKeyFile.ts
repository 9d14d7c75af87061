import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Address, getAddress, isAddress } from 'viem';
import type { SealedSecret } from './keyCipher';

/** The local key's file in the data directory: its address in the clear, the key sealed. */
export interface LocalKeyRecord {
  version: 1;
  address: Address;
  sealed: SealedSecret;
}

export const LOCAL_KEY_FILE = 'local-key.json';

/** Every kind this version reads: `os-keychain` is what the desktop app wrote before the key worker. */
const SEALED_KINDS: readonly SealedSecret['kind'][] = ['scrypt-aes-256-gcm', 'os-keychain-kek', 'os-keychain'];

function isRecord(value: unknown): value is LocalKeyRecord {
  if (typeof value !== 'object' || value === null) return false;
  const { version, address, sealed } = value as Record<string, unknown>;
  return (
    version === 1 &&
    typeof address === 'string' &&
    isAddress(address) &&
    typeof sealed === 'object' &&
    sealed !== null &&
    SEALED_KINDS.includes((sealed as { kind?: unknown }).kind as SealedSecret['kind'])
  );
}

/** The stored local key, or undefined when none was imported. A damaged file throws: it is never silently replaced. */
export function readLocalKey(dataDir: string): LocalKeyRecord | undefined {
  const path = join(dataDir, LOCAL_KEY_FILE);
  if (!existsSync(path)) return undefined;
  const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
  if (!isRecord(parsed)) throw new Error(`${path} is not a local key file this version can read.`);
  return { ...parsed, address: getAddress(parsed.address) };
}

/** Writes the record whole or not at all (temp file, then rename), readable by the owner only. */
export function writeLocalKey(dataDir: string, record: LocalKeyRecord): void {
  const path = join(dataDir, LOCAL_KEY_FILE);
  writeFileSync(`${path}.tmp`, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
  renameSync(`${path}.tmp`, path);
}

/** Moves an unreadable key file out of the way under a dated name; returns where it went. */
export function setAsideLocalKey(dataDir: string): string {
  const aside = join(dataDir, `${LOCAL_KEY_FILE}.unreadable-${Date.now()}`);
  renameSync(join(dataDir, LOCAL_KEY_FILE), aside);
  return aside;
}

export function deleteLocalKey(dataDir: string): void {
  rmSync(join(dataDir, LOCAL_KEY_FILE), { force: true });
}
