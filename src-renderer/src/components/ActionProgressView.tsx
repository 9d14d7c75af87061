import { shortAddress } from '../format';
import { LedgerBlindSigningGuide } from '../wallet/LedgerBlindSigningGuide';
import type { ActionProgress } from '../wallet/sendBuild';

const STAGE_TEXT: Record<ActionProgress['stage'], string> = {
  building: 'Building and simulating…',
  reviewing: 'Review it before signing',
  signing: 'Waiting for the signer (confirm on your Ledger if you use one)…',
  confirming: 'Sent; waiting for a block…',
  done: 'Done: confirmed on chain.',
  rejected: 'Not signed.',
  failed: 'It did not go through.',
};

/** Where an action stands: which transaction of how many, and what it waits for; the reason when it stopped. */
export function ActionProgressView({ progress }: { progress: ActionProgress | null }) {
  if (!progress) return null;
  const { stage, index, total, step, hash, error } = progress;
  return (
    <div
      className={`progress progress-${stage}`}
      role="status"
      data-testid="progress"
      data-stage={stage}
      data-code={error?.code}
    >
      <p>
        {total > 1 && stage !== 'done' && (
          <span className="muted">
            {index} of {total} ({step === 'main' ? 'the transaction' : step}):{' '}
          </span>
        )}
        <strong data-testid="progress-stage">{STAGE_TEXT[stage]}</strong>
        {hash && (
          <>
            {' '}
            <code title={hash} data-testid="progress-hash" data-hash={hash}>
              {shortAddress(hash)}
            </code>
          </>
        )}
      </p>
      {error && (
        <p data-testid="progress-error">
          {error.message} {error.fix && <span className="muted">{error.fix}</span>}{' '}
          <span className="muted">({error.code})</span>
        </p>
      )}
      {error?.code === 'LEDGER_BLIND_SIGNING_DISABLED' && <LedgerBlindSigningGuide />}
    </div>
  );
}
