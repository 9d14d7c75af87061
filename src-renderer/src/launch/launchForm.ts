import { create } from 'zustand';
import type { ApiError } from '../api/apiRequestError';
import { clearStoredDraft, loadStoredDraft, storeDraft } from './draftStorage';
import type { DraftRange } from './shapeDraft';
import type { PresetName } from './shapePresets';

export interface SplitRow {
  wallet: string;
  pct: string;
}

/** The logo: picked, being stored, stored (with the link the launch sends), or refused. */
export type ImageState =
  | { status: 'none' }
  | { status: 'uploading'; fileName: string; preview: string | null }
  | { status: 'ready'; fileName: string; preview: string | null; uri: string; url: string; bytes: number }
  | { status: 'failed'; fileName: string; error: ApiError };

export type CapUnit = 'pair' | 'usd';
export type RoyaltyMode = 'keep' | 'burn' | 'to';
export type ShapeMode = PresetName | 'custom';

/** Everything the wizard asks, as typed. */
export interface LaunchDraft {
  image: ImageState;
  name: string;
  symbol: string;
  description: string;
  website: string;
  x: string;
  telegram: string;
  capUnit: CapUnit;
  marketCap: string;
  /** Null until typed: the settings' default supply is shown meanwhile. */
  supply: string | null;
  /** 'BNB', a listed pair's address, or 'other' for any BEP20 typed in otherPair. */
  pair: string;
  otherPair: string;
  /** Null until chosen: the settings' default tier. */
  feeTier: number | null;
  firstBuy: string;
  splitOn: boolean;
  split: SplitRow[];
  slippagePct: string;
  royalty: RoyaltyMode;
  burnPct: string;
  royaltyTo: string;
  shapeMode: ShapeMode;
  ranges: DraftRange[];
}

export const EMPTY_DRAFT: LaunchDraft = {
  image: { status: 'none' },
  name: '',
  symbol: '',
  description: '',
  website: '',
  x: '',
  telegram: '',
  capUnit: 'pair',
  marketCap: '',
  supply: null,
  pair: 'BNB',
  otherPair: '',
  feeTier: null,
  firstBuy: '',
  splitOn: false,
  split: [{ wallet: '', pct: '100' }],
  slippagePct: '5',
  royalty: 'keep',
  burnPct: '50',
  royaltyTo: '',
  shapeMode: 'flat',
  ranges: [{ fromPct: '0', toPct: '100', bps: '10000' }],
};

interface LaunchFormStore {
  draft: LaunchDraft;
  /** The chain the draft is kept for (a draft for the devnet is not one for mainnet); null until the page knows. */
  chainId: number | null;
  /** The service's refusal of the last build, shown next to its field until the form changes. */
  serverError: ApiError | null;
  edit(patch: Partial<LaunchDraft>): void;
  setServerError(error: ApiError | null): void;
  /** Takes up the draft kept for `chainId` (once per chain: a draft already on screen is not replaced). */
  restore(chainId: number): void;
  /** Clears the form and its kept copy: "Start over", and once a launch is done. */
  reset(): void;
}

/**
 * The launch wizard's draft. A store rather than page state so a half-filled launch survives a visit to another page
 * (checking a balance, importing a key) and the logo need not be uploaded again; kept in localStorage per chain so it
 * also survives a reload.
 */
export const useLaunchForm = create<LaunchFormStore>()((set, get) => ({
  draft: EMPTY_DRAFT,
  chainId: null,
  serverError: null,
  edit(patch) {
    set((store) => ({ draft: { ...store.draft, ...patch }, serverError: null }));
    const { chainId, draft } = get();
    // Every edit is kept at once, so a reload or a crash loses nothing typed.
    if (chainId !== null) storeDraft(chainId, draft);
  },
  setServerError(error) {
    set({ serverError: error });
  },
  restore(chainId) {
    if (get().chainId === chainId) return;
    set({ chainId, draft: { ...EMPTY_DRAFT, ...loadStoredDraft(chainId) }, serverError: null });
  },
  reset() {
    const { chainId } = get();
    if (chainId !== null) clearStoredDraft(chainId);
    set({ draft: EMPTY_DRAFT, serverError: null });
  },
}));
