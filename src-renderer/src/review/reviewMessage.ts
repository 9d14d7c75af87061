import { CHALLENGE_ACTIONS, checkChallengeMessage, ledgerMessageView } from '../../../src-shared/challengeMessage';
import type { ReviewItem } from './reviewStore';

/**
 * A message on the review screen, checked line by line against the service's challenge template, the signer's
 * wallet, the chain and the time. A challenge that fails a check is blocked; a message that is no challenge at all is
 * shown in full with a warning the person must tick (it could be a permit, an order or a login elsewhere).
 */
export function reviewChallenge(request: {
  message: string;
  wallet: string;
  chainId: number;
  /** Whether the signer is a Ledger, for what the device will show. */
  ledger: boolean;
  /** Where main takes the confirmation of a message that is not a challenge (AppInfo.signingConfirmation). */
  confirmation?: 'native-dialog' | 'page' | 'refused';
  now?: number;
}): ReviewItem {
  const { message, wallet, chainId } = request;
  const { fields, checks } = checkChallengeMessage(message, { wallet, chainId, now: request.now ?? Date.now() });
  const shown = ledgerMessageView(message);
  const device = { kind: 'message' as const, ledger: request.ledger, shown: shown.shown, hex: shown.kind === 'hex' };
  const base = { stepLabel: 'A message to sign (no gas)', fields: [], message, device };
  if (!fields) {
    return {
      ...base,
      title: "Sign a message that is not one of this service's challenges",
      checks:
        request.confirmation === 'refused'
          ? [
              {
                id: 'app-will-sign',
                ok: false,
                message:
                  "The app will not sign it here: this server signs only the service's own challenges, as it was started without --allow-warned-signing, and nothing on a web page can confirm another message (script in a page could tick anything). Restart it with --allow-warned-signing, or use the desktop app, which shows the message in a window of its own.",
              },
            ]
          : [],
      warnings: [
        {
          id: 'unknown-message',
          message: `This is not one of this service's challenges. A signed message can be a permit, an order or a login elsewhere: sign it only if you know exactly what it is for.${request.confirmation === 'native-dialog' ? ' The app then shows it to you in full in a window of its own, where you confirm it again.' : ''}`,
        },
      ],
    };
  }
  return { ...base, title: `${CHALLENGE_ACTIONS[fields.purpose]} (moves nothing)`, checks, warnings: [] };
}
