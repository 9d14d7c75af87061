import { Check, X } from 'lucide-react';
import { useState } from 'react';
import { parseUnits } from 'viem';
import { formatAge, formatLocalTime } from '../../../src-shared/format/times';
import { queryClient } from '../api/queryClient';
import type { TokenInfo } from '../api/tokens';
import { ActionProgressView } from '../components/ActionProgressView';
import { ErrorPanel } from '../components/ErrorPanel';
import { failureOf } from '../failureOf';
import { shortAddress } from '../format';
import { Amount } from '../ui/Amount';
import { Badge, type Tone } from '../ui/Badge';
import { Button } from '../ui/Button';
import type { ActionProgress } from '../wallet/sendBuild';
import type { WalletFailure } from '../wallet/walletStore';
import { intentSourceText } from './intentSourceText';
import { INTENT_STATUS_TEXT, type IntentStatus, intentStatus, isOpen } from './intentStatus';
import { type Intent, rejectIntent } from './intentsApi';
import { RejectDialog } from './RejectDialog';
import { RequestTrade } from './RequestTrade';
import { SourceText } from './SourceText';
import { signIntent } from './signIntent';
import { describeRequest, userRequestOf } from './userRequestOf';

const STATUS_TONE: Record<IntentStatus, Tone> = {
  pending: 'warn',
  built: 'warn',
  sent: 'primary',
  confirmed: 'up',
  rejected: 'neutral',
  failed: 'down',
};

/** The reason the person typed, without the service's "rejected by the user: " prefix. */
const rejectionOf = (reason: string | null): string | null => reason?.replace(/^rejected by the user:\s*/, '') ?? null;

function LaunchRequest({ intent }: { intent: Intent }) {
  const request = userRequestOf(intent);
  if (request.kind !== 'launch') return null;
  const pair = typeof intent.request.pair === 'string' ? intent.request.pair : 'BNB';
  let firstBuy: bigint | null = null;
  try {
    firstBuy = request.firstBuy && /^\d+(\.\d+)?$/.test(request.firstBuy) ? parseUnits(request.firstBuy, 18) : null;
  } catch {
    firstBuy = null;
  }
  return (
    <div className="flex flex-col gap-0.5">
      <span>
        <span className="font-semibold">Launch</span> {request.name}{' '}
        <span className="font-semibold text-muted">{request.symbol}</span>
      </span>
      <span className="text-[0.8125rem] text-muted">
        {firstBuy !== null ? (
          <>
            First buy <Amount wei={firstBuy} decimals={18} symbol={pair.startsWith('0x') ? undefined : pair} />
          </>
        ) : (
          'No first buy'
        )}
      </span>
    </div>
  );
}

/**
 * One prepared request: what it asks (token, amounts out and in), who asked (which key, or this app) and when, its
 * state, and the two answers the person can give. `locked` keeps a second request off the review screen while one is
 * under way.
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
  const [rejecting, setRejecting] = useState(false);
  const status = intentStatus(intent);
  const request = userRequestOf(intent);
  const open = isOpen(status);

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

  const reason = status === 'rejected' ? rejectionOf(intent.reason) : intent.reason;
  return (
    <tr
      data-testid="request-row"
      data-intent-id={intent.id}
      data-kind={intent.kind}
      data-status={status}
      className="align-top"
    >
      <td className="min-w-0">
        {request.kind === 'buy' || request.kind === 'sell' ? (
          <RequestTrade request={request} build={intent.build} open={open} />
        ) : (
          <LaunchRequest intent={intent} />
        )}
        <div
          className="mt-1 text-xs break-words text-muted"
          data-testid="request-source"
          data-source={intent.source.kind}
        >
          asked by <SourceText text={intentSourceText(intent)} />
        </div>
      </td>
      <td className="text-[0.8125rem] whitespace-nowrap text-muted">
        <time dateTime={intent.createdAt} title={formatLocalTime(intent.createdAt)}>
          {formatAge(intent.createdAt)}
        </time>
      </td>
      <td>
        <Badge tone={STATUS_TONE[status]} testId="request-status">
          {INTENT_STATUS_TEXT[status]}
        </Badge>
        {intent.tx && (
          <div className="mt-1">
            <code className="text-xs" title={intent.tx.hash}>
              {shortAddress(intent.tx.hash)}
            </code>
          </div>
        )}
        {reason && (
          <div className="mt-1 max-w-56 text-xs break-words text-muted" data-testid="request-reason">
            {reason}
          </div>
        )}
      </td>
      <td className="text-right">
        {open && (
          <span className="inline-flex gap-1.5">
            <Button
              variant="primary"
              size="sm"
              icon={<Check size={14} aria-hidden="true" />}
              disabled={locked || busy}
              onClick={() => void act(() => signIntent(intent, setProgress), 'Sent, but the report to the bot failed')}
              testId="request-review"
            >
              Review and sign
            </Button>
            <Button
              size="sm"
              icon={<X size={14} aria-hidden="true" />}
              disabled={locked || busy}
              onClick={() => setRejecting(true)}
              testId="request-reject"
            >
              Reject
            </Button>
          </span>
        )}
        {rejecting && (
          <RejectDialog
            what={describeRequest(
              request,
              request.kind === 'buy' || request.kind === 'sell'
                ? queryClient.getQueryData<TokenInfo>(['token', request.token])?.symbol
                : undefined,
            )}
            busy={busy}
            onCancel={() => setRejecting(false)}
            onReject={(why) =>
              void act(() => rejectIntent(intent.id, why), 'Could not reject it').then(() => setRejecting(false))
            }
          />
        )}
        <div className="text-left">
          <ActionProgressView progress={progress} />
          {failure && <ErrorPanel title={failure.title} error={failure.error} />}
        </div>
      </td>
    </tr>
  );
}
