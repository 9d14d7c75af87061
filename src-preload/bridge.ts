/** What the preload exposes to the renderer as `window.companion`. */
export interface CompanionBridge {
  /** The API root, e.g. http://127.0.0.1:8787/api/v1. */
  readonly apiBase: string;
  readonly platform: 'electron';
}
