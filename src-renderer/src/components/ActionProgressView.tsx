import { Check, Circle, LoaderCircle, X } from 'lucide-react';
import { useRef } from 'react';
import { Link } from '../router/Link';
import { cn } from '../ui/cn';
import { LedgerBlindSigningGuide } from '../wallet/LedgerBlindSigningGuide';
import type { ActionProgress } from '../wallet/sendBuild';
import { HashChip } from './HashChip';

const STAGE_TEXT: Record<ActionProgress['stage'], string> = {
  building: 'Building and simulating…',
  reviewing: 'Review it before signing',
  signing: 'Waiting for the signer (confirm on your Ledger if you use one)…',
  confirming: 'Sent; waiting for a block…',
  done: 'Done: confirmed on chain.',
  rejected: 'Not signed.',
  failed: 'It did not go through.',
};

type StepState = 'done' | 'current' | 'stopped' | 'waiting';

function stateOf(position: number, progress: ActionProgress): StepState {
  if (progress.stage === 'done' || position < progress.index) return 'done';
  if (position > progress.index) return 'waiting';
  return progress.stage === 'rejected' || progress.stage === 'failed' ? 'stopped' : 'current';
}

function StepIcon({ state }: { state: StepState }) {
  const box = 'inline-flex size-5 shrink-0 items-center justify-center rounded-full';
  if (state === 'done') {
    return (
      <span className={cn(box, 'bg-up-soft text-up')}>
        <Check size={12} strokeWidth={3} aria-hidden="true" />
      </span>
    );
  }
  if (state === 'stopped') {
    return (
      <span className={cn(box, 'bg-down-soft text-down')}>
        <X size={12} strokeWidth={3} aria-hidden="true" />
      </span>
    );
  }
  if (state === 'current') {
    return (
      <span className={cn(box, 'bg-primary-soft text-link')}>
        <LoaderCircle size={12} strokeWidth={3} className="animate-spin" aria-hidden="true" />
      </span>
    );
  }
  return (
    <span className={cn(box, 'text-muted')}>
      <Circle size={10} aria-hidden="true" />
    </span>
  );
}

/**
 * Where an action stands, as a compact stepper: each transaction of it (approvals, then the action's own) with its
 * state and, once sent, its hash to copy; the reason when it stopped; a link onward (the token, Activity) when given.
 */
export function ActionProgressView({
  progress,
  link,
}: {
  progress: ActionProgress | null;
  /** Where to look next once it is under way: the token, or Activity. */
  link?: { to: string; label: string };
}) {
  // The hash of every step sent so far: progress carries only the current one.
  const hashes = useRef(new Map<number, string>());
  if (!progress) return null;
  const { stage, index, hash, error, names } = progress;
  if (stage === 'building' && index === 1) hashes.current.clear();
  if (hash) hashes.current.set(index, hash);
  const steps = names ?? [];
  const stopped = stage === 'rejected' || stage === 'failed';
  return (
    <div
      className={cn(
        'flex flex-col gap-2 rounded-lg border p-3 text-sm',
        stopped ? 'border-down/40 bg-down-soft/40' : stage === 'done' ? 'border-up/40' : 'border-line',
      )}
      role="status"
      data-testid="progress"
      data-stage={stage}
      data-code={error?.code}
    >
      <div className="flex items-center justify-between gap-2">
        <strong data-testid="progress-stage" className={cn(stopped && 'text-down', stage === 'done' && 'text-up')}>
          {STAGE_TEXT[stage]}
        </strong>
        {hash && steps.length <= 1 && <HashChip hash={hash} testId="progress-hash" />}
      </div>
      {steps.length > 1 && (
        <ol className="flex flex-col gap-1.5" aria-label="Steps">
          {steps.map((name, i) => {
            const position = i + 1;
            const state = stateOf(position, progress);
            const stepHash = hashes.current.get(position);
            return (
              <li
                // biome-ignore lint/suspicious/noArrayIndexKey: the steps of one action never reorder
                key={i}
                data-testid="progress-step"
                data-state={state}
                className="flex min-w-0 items-center gap-2"
              >
                <StepIcon state={state} />
                <span className={cn('min-w-0 flex-1 truncate', state === 'waiting' && 'text-muted')} title={name}>
                  {name}
                </span>
                {stepHash && (
                  <HashChip hash={stepHash} testId={position === index && hash ? 'progress-hash' : undefined} />
                )}
              </li>
            );
          })}
        </ol>
      )}
      {error && (
        <p data-testid="progress-error" className="text-sm">
          {error.message} {error.fix && <span className="text-muted">{error.fix}</span>}{' '}
          <span className="text-muted">({error.code})</span>
        </p>
      )}
      {error?.code === 'LEDGER_BLIND_SIGNING_DISABLED' && <LedgerBlindSigningGuide />}
      {link && stage !== 'building' && (
        <Link to={link.to} className="self-start text-xs">
          {link.label}
        </Link>
      )}
    </div>
  );
}
