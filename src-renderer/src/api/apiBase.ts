import type { CompanionBridge } from '../../../src-preload/bridge';

declare global {
  interface Window {
    /** Present only inside Electron, exposed by the preload. */
    companion?: CompanionBridge;
  }
}

/** The API root: from the preload in Electron, else the page's own server (headless web mode). */
export const apiBase: string = window.companion?.apiBase || `${location.origin}/api/v1`;
