import type { AppOperation } from '../../../src-shared/appChannelTypes';

/** A refused app-channel operation, as main describes it. */
export class AppChannelRequestError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly fix?: string,
  ) {
    super(message);
    this.name = 'AppChannelRequestError';
  }
}

const TOKEN_KEY = 'companion.appToken';

/**
 * The headless app's token: the address the app printed ends in `#app=<token>`. It is kept for this tab only and
 * taken out of the address bar, so it does not end up in bookmarks or screenshots.
 */
function appToken(): string | null {
  const fromHash = /(?:^#|&)app=([^&]+)/.exec(location.hash)?.[1];
  if (fromHash) {
    sessionStorage.setItem(TOKEN_KEY, decodeURIComponent(fromHash));
    history.replaceState(null, '', location.pathname + location.search);
  }
  return sessionStorage.getItem(TOKEN_KEY);
}

const token = appToken();

/**
 * The run's token, with which this page proves to the API that it is the app itself (x-app-token on prepared
 * requests): from main over IPC inside Electron, else this tab's; null in a browser opened without it.
 */
export async function appRunToken(): Promise<string | null> {
  if (window.companion) return (await window.companion.appToken()) || null;
  return token;
}

/** Whether this page can reach main's signers: inside Electron always; headless only when opened with the token. */
export const appChannelAvailable = Boolean(window.companion) || token !== null;

/**
 * Asks main for an app-channel operation: over the preload's IPC inside Electron, else over the headless server's
 * /app route with the run's token. Refusals throw AppChannelRequestError with main's code and fix.
 */
export async function invoke<T>(operation: AppOperation, input: object = {}): Promise<T> {
  const reply = window.companion
    ? await window.companion.invoke(operation, input)
    : ((await fetch(`${location.origin}/app/${operation}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token ?? ''}` },
        body: JSON.stringify(input),
      })
        .then((response) => response.json())
        .catch(() => ({
          error: { code: 'UNREACHABLE', message: 'Could not reach the app.', fix: 'Check that it is running.' },
        }))) as { result?: unknown; error?: { code: string; message: string; fix?: string } });
  if (reply.error) throw new AppChannelRequestError(reply.error.code, reply.error.message, reply.error.fix);
  return reply.result as T;
}
