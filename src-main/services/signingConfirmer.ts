import type { Address, Hex } from 'viem';
import { confirmsExactly, type SigningWarning } from './signingWarnings';
import { WalletError } from './walletError';

/** The flag that lets the headless app sign transactions and messages that carry warnings, once the page confirms. */
export const ALLOW_WARNED_SIGNING_FLAG = '--allow-warned-signing';

/** A transaction with warnings, as main asks the person to confirm it. */
export interface WarnedTransaction {
  /** What the call does, written from the decoded call. */
  headline: string;
  wallet: Address;
  /** The hash the signer signs (what a Ledger shows when it signs blind). */
  hash: Hex;
  warnings: readonly SigningWarning[];
  /** The warning ids the page says the person ticked: the confirmation where the page is the only surface there is. */
  confirmedOnPage: readonly string[];
}

/** A message that is not one of the service's challenges, as main asks the person to confirm it. */
export interface UnknownMessage {
  message: string;
  wallet: Address;
  /** Whether the page says the person confirmed it, shown in full. */
  confirmedOnPage: boolean;
}

/**
 * Where the person confirms what main warns about before it signs. In the desktop app a native dialog of main's own,
 * which nothing in the page can click or fill; headless there is no surface but the page, so such requests are
 * refused unless the server was started with ALLOW_WARNED_SIGNING_FLAG. Resolves when confirmed; throws a WalletError
 * when not.
 */
export interface SigningConfirmer {
  /** How the person confirms: shown on the review so it can say what comes next. */
  readonly surface: 'native-dialog' | 'page' | 'refused';
  confirmTransaction(request: WarnedTransaction): Promise<void>;
  confirmMessage(request: UnknownMessage): Promise<void>;
}

/** The headless app's confirmation: the page's ticks, and only when the server was started to take them. */
export function headlessConfirmer(allowWarned: boolean): SigningConfirmer {
  const refusedFix = `Start the app with ${ALLOW_WARNED_SIGNING_FLAG} to sign it after confirming each warning on the review, or use the desktop app, which asks you in a window of its own.`;
  return {
    surface: allowWarned ? 'page' : 'refused',
    async confirmTransaction({ warnings, confirmedOnPage }) {
      if (!allowWarned) {
        throw new WalletError(
          'WARNINGS_NOT_CONFIRMED',
          `This headless app does not sign transactions with warnings (${ids(warnings)}): only a page could confirm them, and script in a page can click anything.`,
          refusedFix,
        );
      }
      if (!confirmsExactly(warnings, confirmedOnPage)) {
        throw new WalletError(
          'WARNINGS_NOT_CONFIRMED',
          `The transaction has warnings (${ids(warnings)}) that were not all confirmed on the review (confirmed: ${confirmedOnPage.join(', ') || 'none'}).`,
          'Review it again and tick each warning, or do not sign it.',
        );
      }
    },
    async confirmMessage({ confirmedOnPage }) {
      if (!allowWarned) {
        throw new WalletError(
          'WARNINGS_NOT_CONFIRMED',
          "This headless app signs only the service's own challenges: another message could be confirmed only on a page, and script in a page can click anything.",
          refusedFix,
        );
      }
      if (!confirmedOnPage) {
        throw new WalletError(
          'UNKNOWN_MESSAGE',
          "The message is not one of this service's challenges; the app signs another message only when you confirm it, shown in full, on the review screen.",
          'Sign it from the app, which shows it to you first, or do not sign it.',
        );
      }
    },
  };
}

/** What main's native dialog needs: one question with its details, answered by the button the person pressed. */
export type AskNatively = (question: { title: string; message: string; detail: string }) => Promise<boolean>;

/** The longest message shown in full in the native dialog; a longer one is refused rather than cut. */
const MAX_DIALOG_MESSAGE_CHARS = 4096;

/**
 * The desktop app's confirmation: main's own dialog lists every warning (or the whole message) and the person presses
 * Sign or Cancel there. The page's ticks are not asked for: the page cannot reach this dialog, so it cannot answer it.
 */
export function nativeConfirmer(ask: AskNatively): SigningConfirmer {
  const declined = (what: string) =>
    new WalletError(
      'WARNINGS_NOT_CONFIRMED',
      `You declined ${what} in the app's confirmation window.`,
      'Nothing was signed.',
    );
  return {
    surface: 'native-dialog',
    async confirmTransaction({ headline, wallet, hash, warnings }) {
      const confirmed = await ask({
        title: 'Confirm the warnings before signing',
        message: headline,
        detail: [
          `Signed by ${wallet}; transaction hash ${hash}.`,
          '',
          ...warnings.map((warning, i) => `${i + 1}. ${warning.message}`),
          '',
          'Sign only if you meant each of these.',
        ].join('\n'),
      });
      if (!confirmed) throw declined('the transaction');
    },
    async confirmMessage({ message, wallet }) {
      if (message.length > MAX_DIALOG_MESSAGE_CHARS) {
        throw new WalletError(
          'UNKNOWN_MESSAGE',
          `The message is ${message.length} characters long, too long to show in full before signing.`,
          'Do not sign it.',
        );
      }
      const confirmed = await ask({
        title: 'Sign a message that is not one of the app’s challenges?',
        message: `Signed by ${wallet}. The whole message:`,
        detail: message,
      });
      if (!confirmed) throw declined('the message');
    },
  };
}

function ids(warnings: readonly SigningWarning[]): string {
  return warnings.map((warning) => warning.id).join(', ');
}
