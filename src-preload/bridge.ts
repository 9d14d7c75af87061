/** What the preload exposes to the renderer as `window.companion`. */
export interface CompanionBridge {
  /** The API root, e.g. http://127.0.0.1:8787/api/v1. */
  readonly apiBase: string;
  readonly platform: 'electron';
  /**
   * The run's token, sent as x-app-token so the API knows a request comes from the app itself (prepared requests).
   * Main answers it only to the app's own origin (an empty string otherwise).
   */
  appToken(): Promise<string>;
  /**
   * Asks main for one of the app channel's operations (signers, sending, activity). Resolves `{ result }` or
   * `{ error: { code, message, fix } }`; never rejects for a refused operation.
   */
  invoke(
    operation: string,
    input: unknown,
  ): Promise<{ result?: unknown; error?: { code: string; message: string; fix?: string } }>;
}

/** The IPC channel name the preload and main agree on. */
export const APP_CHANNEL_IPC = 'app-channel';
/** The channel on which the page asks main for the run's token: never on the command line, where any local program could read it. */
export const APP_TOKEN_IPC = 'app-token';
