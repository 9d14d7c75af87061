import type { Address } from 'viem';
import { ApiRequestError } from '../api/apiRequestError';
import { queryClient } from '../api/queryClient';
import type { TokenInfo } from '../api/tokens';
import { type ActionProgress, type BuildAnswer, sendBuild, type UserRequest } from '../wallet/sendBuild';
import { intentSourceText } from './intentSourceText';
import { buildIntent, type Intent, reportIntentSent } from './intentsApi';
import { describeRequest, userRequestOf } from './userRequestOf';

/** The token's symbol as the Requests list last read it, to name it in the review's title. */
function tokenSymbol(request: UserRequest): string | undefined {
  if (request.kind !== 'buy' && request.kind !== 'sell') return undefined;
  return queryClient.getQueryData<TokenInfo>(['token', request.token])?.symbol;
}

/**
 * Fulfils a prepared request: builds it through the service (which records the build), reviews and sends every
 * transaction like any other action, then reports the main transaction's hash so the bot sees it sent. The report is
 * made only after the receipt, so the service finds it on chain at once.
 */
export async function signIntent(
  intent: Intent,
  onProgress: (progress: ActionProgress) => void,
): Promise<{ progress: ActionProgress; reported?: Intent }> {
  const request = userRequestOf(intent);
  const { progress } = await sendBuild({
    title: `A bot's request: ${describeRequest(request, tokenSymbol(request))}`,
    request,
    askedBy: intentSourceText(intent),
    build: async (wallet: Address) => {
      if (wallet.toLowerCase() !== intent.wallet.toLowerCase()) {
        throw new ApiRequestError({
          code: 'WRONG_WALLET',
          message: `The request is for ${intent.wallet}, and the signer is ${wallet}.`,
          fix: `Switch the signer to ${intent.wallet} in Settings.`,
        });
      }
      return (await buildIntent(intent.id)).build as BuildAnswer;
    },
    onProgress,
  });
  if (progress.stage !== 'done' || !progress.hash) return { progress };
  return { progress, reported: await reportIntentSent(intent.id, progress.hash) };
}
