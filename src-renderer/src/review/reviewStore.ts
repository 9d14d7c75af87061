import { create } from 'zustand';

export interface ReviewCheck {
  id: string;
  ok: boolean;
  message: string;
}

/** Everything the review screen shows about one transaction or message before it is signed. */
export interface ReviewItem {
  /** What it does, in one sentence. */
  title: string;
  /** "Step 1 of 2", "The trade", "A message to sign". */
  stepLabel: string;
  contract?: string;
  fn?: string;
  /** Decoded arguments and the call's value, gas ceiling, deadline, referrer and fees, in human units. */
  fields: { name: string; value: string }[];
  /** For a message: its exact text. */
  message?: string;
  /** Each check against what the person asked; one failed check blocks signing. */
  checks: ReviewCheck[];
  /** The transaction as it will be signed, for the curious. */
  raw?: { chainId: number; to: string; data: string; value: string; gas?: string };
}

interface Pending {
  /** Counts the reviews shown, so a new one is told from the last even when it follows at once. */
  id: number;
  item: ReviewItem;
  answer(approved: boolean): void;
}

interface ReviewStore {
  current: Pending | null;
  /** Shows `item` on the review screen; resolves true when the person signs, false when they reject or it is blocked. */
  ask(item: ReviewItem): Promise<boolean>;
}

let shown = 0;

export const useReview = create<ReviewStore>()((set) => ({
  current: null,
  ask(item) {
    return new Promise<boolean>((resolve) => {
      shown += 1;
      set({
        current: {
          id: shown,
          item,
          answer: (approved) => {
            set({ current: null });
            // A blocked item can never be approved, whatever calls answer().
            resolve(approved && item.checks.every((check) => check.ok));
          },
        },
      });
    });
  },
}));
