import { TriangleAlert } from 'lucide-react';
import { formatExact } from '../../../src-shared/format/numbers';
import { CopyButton } from '../referrals/CopyButton';
import { Button } from '../ui/Button';
import type { CreatedKey } from './keysApi';

/** The new key, shown this one time: the service keeps only a hash of it, so it can never be shown again. */
export function CreatedKeyPanel({ created, onDone }: { created: CreatedKey; onDone: () => void }) {
  return (
    <section
      className="rounded-xl border border-up/40 bg-up-soft p-4"
      data-testid="key-created"
      role="status"
      aria-label="Your new key"
    >
      <h2 className="text-[0.9375rem] font-semibold">Your new key “{created.label}”</h2>
      {created.budget && (
        <p className="mt-1 text-muted" data-testid="key-created-budget">
          Its own budget: {formatExact(BigInt(created.budget.quotesPerMinute), 0)} quotes and{' '}
          {formatExact(BigInt(created.budget.buildsPerMinute), 0)} builds a minute.
        </p>
      )}
      <div className="mt-3 flex flex-wrap items-start gap-2">
        <code
          className="min-w-0 flex-1 rounded-md border border-line bg-surface px-3 py-2 font-mono font-semibold break-all"
          data-testid="key-created-value"
        >
          {created.key}
        </code>
        <CopyButton text={created.key} testId="key-created-copy" />
      </div>
      <p className="mt-3 flex items-start gap-2 font-semibold" data-testid="key-created-warning">
        <TriangleAlert size={16} aria-hidden="true" className="mt-0.5 shrink-0 text-warn" />
        Copy it now: it will not be shown again. Only a hash of it is kept, so a lost key cannot be recovered; revoke it
        and create another.
      </p>
      <Button className="mt-3" variant="primary" onClick={onDone} testId="key-created-done">
        I have copied it
      </Button>
    </section>
  );
}
