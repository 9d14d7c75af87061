import { CopyButton } from '../referrals/CopyButton';
import type { CreatedKey } from './keysApi';

/** The new key, shown this one time: the service keeps only a hash of it, so it can never be shown again. */
export function CreatedKeyPanel({ created, onDone }: { created: CreatedKey; onDone: () => void }) {
  return (
    <section className="panel acct-created-key" data-testid="key-created" role="status">
      <h3>Your new key “{created.label}”</h3>
      <p>
        <code className="acct-secret" data-testid="key-created-value">
          {created.key}
        </code>{' '}
        <CopyButton text={created.key} testId="key-created-copy" />
      </p>
      <p className="acct-warning" data-testid="key-created-warning">
        Copy it now: it will not be shown again. Only a hash of it is kept, so a lost key cannot be recovered; revoke it
        and create another.
      </p>
      <button type="button" onClick={onDone} data-testid="key-created-done">
        I have copied it
      </button>
    </section>
  );
}
