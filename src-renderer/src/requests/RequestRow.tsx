import { useState } from 'react';
import { ActionProgressView } from '../components/ActionProgressView';
import { ErrorPanel } from '../components/ErrorPanel';
import { failureOf } from '../failureOf';
import { age, shortAddress } from '../format';
import type { ActionProgress } from '../wallet/sendBuild';
import type { WalletFailure } from '../wallet/walletStore';
import { intentSourceText } from './intentSourceText';
import { INTENT_STATUS_TEXT, intentStatus, isOpen } from './intentStatus';
import { type Intent, rejectIntent } from './intentsApi';
import { signIntent } from './signIntent';
import { describeRequest, userRequestOf } from './userRequestOf';

const KIND_TEXT: Record<Intent['kind'], string> = {
  prepare_buy: 'buy',
  prepare_sell: 'sell',
  prepare_launch: 'launch',
};

/**
 * One prepared request: what it asks, who asked (which key, or this app) and when, its state, and the two answers the person can give.
 * `locked` keeps a second request off the review screen while one is under way.
 */
export function RequestRow({
  intent,
  locked,
  onBusy,
  onChanged,
}: {
  intent: Intent;
  locked: boolean;
  onBusy: (busy: boolean) => void;
  onChanged: () => void;
}) {
  const [progress, setProgress] = useState<ActionProgress | null>(null);
  const [failure, setFailure] = useState<{ title: string; error: WalletFailure } | null>(null);
  const [busy, setBusy] = useState(false);
  const status = intentStatus(intent);

  async function act(work: () => Promise<unknown>, failureTitle: string) {
    setBusy(true);
    onBusy(true);
    setFailure(null);
    try {
      await work();
    } catch (cause) {
      setFailure({ title: failureTitle, error: failureOf(cause) });
    } finally {
      setBusy(false);
      onBusy(false);
      onChanged();
    }
  }

  return (
    <tr data-testid="request-row" data-intent-id={intent.id} data-kind={intent.kind} data-status={status}>
      <td>{KIND_TEXT[intent.kind]}</td>
      <td>
        {describeRequest(userRequestOf(intent))}
        <div className="muted" data-testid="request-source" data-source={intent.source.kind}>
          asked by {intentSourceText(intent)}
        </div>
      </td>
      <td>
        <time dateTime={intent.createdAt} title={new Date(intent.createdAt).toLocaleString()}>
          {age(intent.createdAt)}
        </time>
      </td>
      <td>
        <span className={`status status-${status}`} data-testid="request-status">
          {INTENT_STATUS_TEXT[status]}
        </span>
        {intent.tx && (
          <div>
            <code title={intent.tx.hash}>{shortAddress(intent.tx.hash)}</code>
          </div>
        )}
        {intent.reason && status !== 'rejected' && <div className="muted">{intent.reason}</div>}
      </td>
      <td>
        {isOpen(status) && (
          <span className="acct-actions">
            <button
              type="button"
              disabled={locked || busy}
              onClick={() => void act(() => signIntent(intent, setProgress), 'Sent, but the report to the bot failed')}
              data-testid="request-review"
            >
              Review and sign
            </button>{' '}
            <button
              type="button"
              disabled={locked || busy}
              onClick={() => void act(() => rejectIntent(intent.id), 'Could not reject it')}
              data-testid="request-reject"
            >
              Reject
            </button>
          </span>
        )}
        <ActionProgressView progress={progress} />
        {failure && <ErrorPanel title={failure.title} error={failure.error} />}
      </td>
    </tr>
  );
}
