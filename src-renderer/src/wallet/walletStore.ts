import type { Address } from 'viem';
import { create } from 'zustand';
import type { AppInfo, SignerStatus } from '../../../src-shared/appChannelTypes';
import { failureOf } from '../failureOf';
import { appChannelAvailable, invoke } from './appChannel';

export type { SignerStatus };

export interface WalletFailure {
  code: string;
  message: string;
  fix?: string;
}

interface WalletStore {
  available: boolean;
  info: AppInfo | null;
  status: SignerStatus | null;
  /** The last refused operation, shown where it was asked. */
  failure: WalletFailure | null;
  busy: boolean;
  /** The browser wallet's account, when the person chose to sign with it instead of the app's signers. */
  injected: Address | null;
  chooseInjected(address: Address | null): void;
  refresh(): Promise<void>;
  /** Runs one signer operation, keeping `status` current and `failure` set when main refuses. */
  run(operation: Parameters<typeof invoke>[0], input?: object): Promise<boolean>;
}

export const useWallet = create<WalletStore>()((set, get) => ({
  available: appChannelAvailable,
  info: null,
  status: null,
  failure: null,
  busy: false,
  injected: null,
  chooseInjected(address) {
    set({ injected: address });
  },
  async refresh() {
    if (!appChannelAvailable) return;
    try {
      const [info, status] = await Promise.all([invoke<AppInfo>('app.info'), invoke<SignerStatus>('signer.status')]);
      set({ info, status });
    } catch (cause) {
      set({ failure: failureOf(cause) });
    }
  },
  async run(operation, input = {}) {
    set({ busy: true, failure: null });
    try {
      const status = await invoke<SignerStatus>(operation, input);
      set({ status, busy: false });
      return true;
    } catch (cause) {
      set({ failure: failureOf(cause), busy: false });
      await get().refresh();
      return false;
    }
  },
}));

/** The wallet that signs now: the browser wallet when chosen, else the app's active signer. */
export function activeAddress(state: { injected: Address | null; status: SignerStatus | null }): Address | null {
  return state.injected ?? state.status?.address ?? null;
}
