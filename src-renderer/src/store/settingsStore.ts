import { create } from 'zustand';
import { type ApiError, ApiRequestError } from '../api/getJson';
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
      set({ state: { status: 'ready', settings: await fetchSettings() } });
    } catch (cause) {
      const error = cause instanceof ApiRequestError ? cause.error : { code: 'INTERNAL', message: String(cause) };
      set({ state: { status: 'error', error } });
    }
  },
}));
