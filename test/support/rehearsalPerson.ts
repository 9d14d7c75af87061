import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { testAccounts } from '../../src-main/chain/devnet/testAccounts';
import { passphraseCipher } from '../../src-main/signer/localKey/keyCipher';
import { pngBytes } from './pngImage';
import type { TestServiceOptions } from './startTestService';

/** The run token of the headless app channel in a rehearsal test. */
export const APP_TOKEN = 'rehearsal-app-token-0123456789abcdef';
const PASSPHRASE = 'rehearsal passphrase';

/**
 * Service options for a person using the app: the app channel on, a cheap keystore (same format, lower work), and the
 * review's ticks taken as the confirmation of main's warnings (the person here trades through referral links).
 */
export const PERSON_OPTIONS: TestServiceOptions = {
  appToken: APP_TOKEN,
  keyCipher: passphraseCipher({ n: 2 ** 12, r: 8, p: 1 }),
  allowWarnedSigning: true,
};

export interface Sent {
  id: string;
  hash: Hex;
  status: string;
  /** What tx.wait answered: confirmed or reverted, with the block; or the error the app gave. */
  settled: { status: string; block?: number; error?: string };
}

/**
 * A person at the app: a local key imported into the app's signer, builds asked of the API, and each transaction
 * signed and sent by the app's own sender (the app channel's tx.send, then tx.wait), as the web UI does it.
 */
export async function rehearsalPerson(
  service: { url: string; origin: string },
  accountIndex: number,
  appToken = APP_TOKEN,
) {
  const key = testAccounts()[accountIndex]?.privateKey as Hex;
  const address = privateKeyToAccount(key).address;
  const channel = async (operation: string, input: unknown) => {
    const response = await fetch(`${service.origin}/app/${operation}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${appToken}` },
      body: JSON.stringify(input),
    });
    const body = (await response.json()) as { result?: any; error?: { code: string; message: string } };
    if (!response.ok) throw new Error(`${operation}: ${body.error?.code}: ${body.error?.message}`);
    return body.result;
  };
  await channel('signer.importKey', { privateKey: key, passphrase: PASSPHRASE });
  const api = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    const response = await fetch(`${service.url}${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  /** Sends one transaction of a build through the app's sender and waits for what the app says became of it. */
  const send = async (tx: unknown, step: string, kind: string, title: string): Promise<Sent> => {
    // Prepared first, as the review does: main signs only what it prepared (and judged). The person ticks what main
    // warns about, as on the review (a referral link's first trade binds the wallet).
    const prepared = await channel('tx.prepare', { tx });
    const confirmedWarnings = (prepared.warnings as { id: string }[]).map((warning) => warning.id);
    const sent = await channel('tx.send', {
      tx,
      prepared: prepared.id,
      confirmedWarnings,
      step,
      kind,
      title: title.slice(0, 200),
    });
    let settled: Sent['settled'];
    try {
      settled = await channel('tx.wait', { id: sent.id });
    } catch (error) {
      settled = { status: 'error', error: (error as Error).message };
    }
    return { id: sent.id, hash: sent.hash, status: sent.status, settled };
  };
  /** Builds, sends every `requires` step and the build again, then the transaction itself. */
  const buildAndSend = async (path: string, body: Record<string, unknown>, kind: string) => {
    let built = await api('POST', path, { wallet: address, ...body });
    if (built.status !== 200) throw new Error(`${path}: ${built.status} ${JSON.stringify(built.body)}`);
    const steps: Sent[] = [];
    if (built.body.requires.length > 0) {
      for (const step of built.body.requires) steps.push(await send(step.tx, step.step, 'approve', step.explain));
      built = await api('POST', path, { wallet: address, ...body });
      if (built.status !== 200) throw new Error(`${path}: ${built.status} ${JSON.stringify(built.body)}`);
    }
    const main = await send(built.body.tx, 'main', kind, built.body.explain);
    return { build: built.body, steps, main };
  };
  return { address: address as Address, key, api, channel, send, buildAndSend };
}

export type RehearsalPerson = Awaited<ReturnType<typeof rehearsalPerson>>;

/** Uploads a small PNG logo to the service's media store, as the launch page does; returns its link for `image`. */
export async function uploadLogo(service: { url: string }): Promise<string> {
  const upload = await fetch(`${service.url}/media/image`, {
    method: 'POST',
    body: new Uint8Array(pngBytes(64)),
    headers: { 'content-type': 'image/png' },
  });
  if (!upload.ok) throw new Error(`logo upload: ${upload.status} ${await upload.text()}`);
  return ((await upload.json()) as { url: string }).url;
}

/** Polls `check` until it returns something other than undefined, or throws after `timeoutMs` naming `what`. */
export async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
