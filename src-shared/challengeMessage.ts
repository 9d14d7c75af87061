import { type Address, getAddress, isAddress } from 'viem';
import { readerLocale } from './format/locale';

/** What each challenge lets the wallet do, as its first line says. */
export const CHALLENGE_ACTIONS = {
  referral: 'Register this wallet as a referrer',
  key: 'Create an API key for this wallet',
  session: 'Sign in to the app with this wallet',
} as const;

export type ChallengePurpose = keyof typeof CHALLENGE_ACTIONS;

/** How long a challenge may be signed and sent back. */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;

/** A challenge's fields, as the server fills its template. */
export interface ChallengeFields {
  purpose: ChallengePurpose;
  wallet: Address;
  chainId: number;
  /** 32 hex digits. */
  nonce: string;
  /** Unix milliseconds. */
  expires: number;
}

const LAST_LINE = 'Signing costs nothing and moves nothing.';

/** The exact text of a challenge: the server issues it, and the app signs nothing else without asking. */
export function challengeMessage(fields: ChallengeFields): string {
  return [
    `Launchpad Companion: ${CHALLENGE_ACTIONS[fields.purpose]}.`,
    '',
    `Wallet: ${fields.wallet}`,
    `Chain: ${fields.chainId}`,
    `Nonce: ${fields.nonce}`,
    `Expires: ${new Date(fields.expires).toISOString()}`,
    '',
    LAST_LINE,
  ].join('\n');
}

/**
 * Reads a message as one of the service's challenges: its fields when the text is the template filled in, line for
 * line (the template written again from what was read gives the same text), null for any other message.
 *
 * @example readChallengeMessage('Hello') // null
 */
export function readChallengeMessage(message: string): ChallengeFields | null {
  const lines = message.split('\n');
  if (lines.length !== 8) return null;
  const purpose = (Object.keys(CHALLENGE_ACTIONS) as ChallengePurpose[]).find(
    (p) => lines[0] === `Launchpad Companion: ${CHALLENGE_ACTIONS[p]}.`,
  );
  const value = (line: string | undefined, name: string) =>
    line?.startsWith(`${name}: `) ? line.slice(name.length + 2) : undefined;
  const wallet = value(lines[2], 'Wallet');
  const chain = value(lines[3], 'Chain');
  const nonce = value(lines[4], 'Nonce');
  const expires = Date.parse(value(lines[5], 'Expires') ?? '');
  if (!purpose || !wallet || !isAddress(wallet, { strict: false }) || !chain || !/^[1-9]\d{0,15}$/.test(chain)) {
    return null;
  }
  if (!nonce || !/^[0-9a-f]{32}$/.test(nonce) || !Number.isFinite(expires)) return null;
  const fields: ChallengeFields = { purpose, wallet: getAddress(wallet), chainId: Number(chain), nonce, expires };
  // The server writes the wallet checksummed; anything else in any line is not its template.
  return challengeMessage(fields) === message ? fields : null;
}

export interface MessageCheck {
  id: 'message-ours' | 'wallet-matches' | 'chain-id' | 'not-expired';
  ok: boolean;
  message: string;
}

/**
 * Checks a message against the service's challenge template, the signer's wallet, the chain and the time: what
 * main's guard and the review screen both run before a message is signed.
 */
export function checkChallengeMessage(
  message: string,
  context: { wallet: string; chainId: number; now: number },
): { fields: ChallengeFields | null; checks: MessageCheck[] } {
  const fields = readChallengeMessage(message);
  if (!fields) {
    return {
      fields,
      checks: [
        {
          id: 'message-ours',
          ok: false,
          message: "It is not one of this service's challenges: it could be a permit, an order or a login elsewhere.",
        },
      ],
    };
  }
  const { wallet, chainId, now } = context;
  const expiresAt = new Date(fields.expires);
  return {
    fields,
    checks: [
      { id: 'message-ours', ok: true, message: "It is one of this service's challenges, which move nothing." },
      {
        id: 'wallet-matches',
        ok: fields.wallet.toLowerCase() === wallet.toLowerCase(),
        message: `It names the signer's wallet ${wallet} (it says ${fields.wallet}).`,
      },
      {
        id: 'chain-id',
        ok: fields.chainId === chainId,
        message: `It is for chain ${chainId} (it says ${fields.chainId}).`,
      },
      {
        id: 'not-expired',
        // A challenge lives five minutes: one that expires later than that was not issued now by this service.
        ok: fields.expires > now && fields.expires <= now + CHALLENGE_TTL_MS + 60_000,
        message:
          fields.expires > now
            ? `It expires at ${expiresAt.toLocaleTimeString(readerLocale())}${fields.expires > now + CHALLENGE_TTL_MS + 60_000 ? ', later than any challenge of this service' : ''}.`
            : `It expired at ${expiresAt.toLocaleTimeString(readerLocale())}.`,
      },
    ],
  };
}

/**
 * The message as a Ledger's Ethereum app shows it: the text when it is printable ASCII (line breaks shown as
 * spaces on the device), otherwise the bytes as hex.
 */
export function ledgerMessageView(message: string): { kind: 'text' | 'hex'; shown: string } {
  const bytes = new TextEncoder().encode(message);
  const printable = bytes.every((b) => b === 0x0a || (b >= 0x20 && b < 0x7f));
  if (printable) return { kind: 'text', shown: message };
  return { kind: 'hex', shown: `0x${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}` };
}
