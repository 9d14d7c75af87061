import type { Intent } from './intentsApi';

export type IntentStatus = 'pending' | 'built' | 'sent' | 'confirmed' | 'rejected' | 'failed';

/** The prefix the service gives the reason of a request the user turned down (its state is then 'failed'). */
const REJECTED_PREFIX = 'rejected by the user';

/**
 * The status to show: the service keeps a turned-down request as 'failed' with a reason, which the person should see
 * as rejected, not as a transaction that went wrong.
 */
export function intentStatus(intent: Pick<Intent, 'state' | 'reason'>): IntentStatus {
  if (intent.state === 'failed' && intent.reason?.startsWith(REJECTED_PREFIX)) return 'rejected';
  return intent.state;
}

export const INTENT_STATUS_TEXT: Record<IntentStatus, string> = {
  pending: 'waiting for you',
  built: 'built, waiting for you',
  sent: 'sent, waiting for a block',
  confirmed: 'confirmed',
  rejected: 'rejected',
  failed: 'failed',
};

/** Whether the person can still sign or reject it. */
export const isOpen = (status: IntentStatus): boolean => status === 'pending' || status === 'built';
