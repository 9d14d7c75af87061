import { KeyRound, Lock, LockOpen, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { Badge } from '../ui/Badge';
import { Button } from '../ui/Button';
import { Card } from '../ui/Card';
import { Field } from '../ui/Field';
import { useWallet } from '../wallet/walletStore';

function UnlockForm({ needsPassphrase }: { needsPassphrase: boolean }) {
  const { run, busy } = useWallet();
  const id = useId();
  const [passphrase, setPassphrase] = useState('');
  return (
    <form
      className="mt-3 flex flex-wrap items-end gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        void run('signer.unlock', needsPassphrase ? { passphrase } : {}).then(() => setPassphrase(''));
      }}
    >
      {needsPassphrase && (
        <Field label="Passphrase" htmlFor={`${id}-passphrase`} className="min-w-56 flex-1">
          <input
            id={`${id}-passphrase`}
            type="password"
            autoComplete="current-password"
            data-testid="unlock-passphrase"
            value={passphrase}
            onChange={(e) => setPassphrase(e.target.value)}
          />
        </Field>
      )}
      <Button
        type="submit"
        variant="primary"
        icon={<LockOpen size={16} aria-hidden="true" />}
        disabled={busy}
        testId="unlock"
      >
        Unlock
      </Button>
    </form>
  );
}

function ImportForm() {
  const { run, busy } = useWallet();
  const id = useId();
  const [privateKey, setPrivateKey] = useState('');
  const [passphrase, setPassphrase] = useState('');
  return (
    <form
      data-testid="import-key"
      className="flex flex-col gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        void run('signer.importKey', { privateKey, passphrase }).then((done) => {
          if (done) {
            setPrivateKey('');
            setPassphrase('');
          }
        });
      }}
    >
      <div className="grid gap-3 lg:grid-cols-2">
        <Field label="Private key" htmlFor={`${id}-key`}>
          <input
            id={`${id}-key`}
            type="password"
            autoComplete="off"
            placeholder="0x…"
            data-testid="import-private-key"
            value={privateKey}
            onChange={(e) => setPrivateKey(e.target.value)}
          />
        </Field>
        <Field label="Passphrase" htmlFor={`${id}-passphrase`}>
          <input
            id={`${id}-passphrase`}
            type="password"
            autoComplete="new-password"
            data-testid="import-passphrase"
            value={passphrase}
            onChange={(e) => setPassphrase(e.target.value)}
          />
        </Field>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" variant="primary" disabled={busy || !privateKey} testId="import-submit">
          Import
        </Button>
        <p className="text-xs text-muted">
          The key is encrypted at rest in the data directory and stays in the app's main process; this page never sees
          it again.
        </p>
      </div>
    </form>
  );
}

/** The local key: import one, or unlock, lock, choose or forget the one kept here. */
export function LocalKeySetup() {
  const { status, run } = useWallet();
  const localKey = status?.localKey;
  return (
    <Card
      title={
        <span className="inline-flex items-center gap-2">
          <KeyRound size={16} aria-hidden="true" className="text-muted" /> Local key
        </span>
      }
      actions={
        localKey && (
          <Badge tone={localKey.unlocked ? 'up' : 'warn'} testId="local-key-state">
            {localKey.unlocked ? 'unlocked' : 'locked'}
          </Badge>
        )
      }
    >
      {localKey ? (
        <div data-testid="local-key">
          <code className="font-mono break-all">{localKey.address}</code>
          {!localKey.unlocked && <UnlockForm needsPassphrase={localKey.needsPassphrase} />}
          <div className="mt-3 flex flex-wrap gap-2">
            {localKey.unlocked && status?.active !== 'local' && (
              <Button variant="primary" size="sm" onClick={() => void run('signer.use', { kind: 'local' })}>
                Sign with this key
              </Button>
            )}
            {localKey.unlocked && (
              <Button size="sm" icon={<Lock size={14} aria-hidden="true" />} onClick={() => void run('signer.lock')}>
                Lock
              </Button>
            )}
            <Button
              size="sm"
              variant="ghost"
              className="text-down"
              icon={<Trash2 size={14} aria-hidden="true" />}
              onClick={() => {
                if (
                  confirm('Forget the local key? Only its encrypted file is deleted; keep your own copy of the key.')
                ) {
                  void run('signer.forget');
                }
              }}
            >
              Forget
            </Button>
          </div>
        </div>
      ) : (
        <ImportForm />
      )}
    </Card>
  );
}
