import { create } from 'zustand';
import { type ApiError, ApiRequestError } from '../api/apiRequestError';
import { fetchSettings, type Settings } from '../api/settings';

export type SettingsState =
  | { status: 'loading' }
  | { status: 'ready'; settings: Settings }
  | { status: 'error'; error: ApiError };

interface SettingsStore {
  state: SettingsState;
  load(): Promise<void>;
}

export const useSettingsStore = create<SettingsStore>()((set) => ({
  state: { status: 'loading' },
  async load() {
    set({ state: { status: 'loading' } });
    try {
      const settings = await fetchSettings();
      rememberSettings(settings);
      set({ state: { status: 'ready', settings } });
    } catch (cause) {
      const error = cause instanceof ApiRequestError ? cause.error : { code: 'INTERNAL', message: String(cause) };
      set({ state: { status: 'error', error } });
    }
  },
}));

const cacheKey = (chainId: number) => `companion.settings.${chainId}`;

/** Kept per chain so the offline inspector knows our contracts when the service cannot be reached. */
function rememberSettings(settings: Settings): void {
  try {
    localStorage.setItem(cacheKey(settings.chainId), JSON.stringify(settings));
  } catch {
    // Storage full or denied: the inspector then asks for the settings.
  }
}

/** The last settings this app saw for `chainId`, if any. */
export function rememberedSettings(chainId: number): unknown {
  try {
    const text = localStorage.getItem(cacheKey(chainId));
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}
