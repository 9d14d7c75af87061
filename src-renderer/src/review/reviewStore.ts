import { create } from 'zustand';
import type { LedgerView } from '../../../src-shared/inspect/signingView';
import type { CollectFacts } from './CollectSummary';
import type { LaunchFacts } from './LaunchSummary';
import type { MoneyFlow } from './moneyFlow';

export interface ReviewCheck {
  id: string;
  ok: boolean;
  message: string;
}

/** A risk to the person's own interest: signing is possible only once they tick it. */
export interface ReviewWarning {
  id: string;
  message: string;
}

/** Everything the review screen shows about one transaction or message before it is signed. */
export interface ReviewItem {
  /** What it does, in one sentence, written from the decoded call (or the message), never from a build's text. */
  title: string;
  /** Who asked for it, when it was not the person on this page (a bot's prepared request). */
  askedBy?: string;
  /** "Step 1 of 2", "The trade", "A message to sign". */
  stepLabel: string;
  contract?: string;
  fn?: string;
  /** What it does to the person's money, from the decoded call: pay, get, network fee, contract. */
  flow?: MoneyFlow;
  /** For a launch: the build answer in a trader's terms (cap, ranges as caps, first buy, gas). */
  launch?: LaunchFacts;
  /** For a collect: who gains what, as the build's simulation says. */
  collect?: CollectFacts;
  /** Decoded arguments and the call's value, gas ceiling, deadline, referrer and fees, in human units. */
  fields: { name: string; value: string }[];
  /** For a message: its exact text. */
  message?: string;
  /** Each check against what the person asked; one failed check blocks signing. */
  checks: ReviewCheck[];
  /** Each needs its own tick before Sign is enabled. */
  warnings: ReviewWarning[];
  /** What a Ledger will display before it signs: the transaction's screens and hash, or a message's text. */
  device?:
    | { kind: 'transaction'; ledger: boolean; view: LedgerView }
    | { kind: 'message'; ledger: boolean; shown: string; hex: boolean };
  /** The transaction as it will be signed, for the curious. */
  raw?: { chainId: number; to: string; data: string; value: string; gas?: string };
}

interface Pending {
  /** Counts the reviews shown, so a new one is told from the last even when it follows at once. */
  id: number;
  item: ReviewItem;
  /** `ticked`: the ids of the warnings the person ticked. */
  answer(approved: boolean, ticked?: readonly string[]): void;
}

interface ReviewStore {
  current: Pending | null;
  /**
   * Shows `item` on the review screen; resolves true when the person signs, false when they reject, when a check
   * failed, or when a warning was left unticked.
   */
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
          answer: (approved, ticked = []) => {
            set({ current: null });
            // A blocked item can never be approved, whatever calls answer().
            resolve(approved && signable(item, ticked));
          },
        },
      });
    });
  },
}));

/** Whether an item may be signed: every check passed and every warning ticked. */
export function signable(item: ReviewItem, ticked: readonly string[]): boolean {
  return item.checks.every((check) => check.ok) && item.warnings.every((warning) => ticked.includes(warning.id));
}
