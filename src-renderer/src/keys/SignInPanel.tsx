import { useState } from 'react';
import type { Address } from 'viem';
import { ErrorPanel } from '../components/ErrorPanel';
import { failureOf } from '../failureOf';
import { Button } from '../ui/Button';
import type { WalletFailure } from '../wallet/walletStore';
import { signIn } from './signIn';

const WHY: Record<'none' | 'expired' | 'other-wallet', string> = {
  none: 'Sign in to list your keys.',
  expired: 'Your sign-in is over 30 days old: sign in again to list your keys.',
  'other-wallet': 'This browser is signed in with another wallet: sign in with this one to list its keys.',
};

/** Listing and revoking keys needs this browser signed in as the wallet: one signed message, good for 30 days. */
export function SignInPanel({
  wallet,
  reason,
  onSignedIn,
}: {
  wallet: Address;
  reason: keyof typeof WHY;
  onSignedIn: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [rejected, setRejected] = useState(false);
  const [failure, setFailure] = useState<WalletFailure | null>(null);

  async function start() {
    setBusy(true);
    setRejected(false);
    setFailure(null);
    try {
      if (await signIn(wallet)) onSignedIn();
      else setRejected(true);
    } catch (cause) {
      setFailure(failureOf(cause));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div
      data-testid="keys-signed-out"
      data-reason={reason}
      className="flex flex-col items-center gap-2 px-6 py-8 text-center"
    >
      <p className="font-semibold">{WHY[reason]}</p>
      <p className="text-muted">Signing in is a message to sign: no gas, and it moves nothing.</p>
      <Button variant="primary" disabled={busy} onClick={() => void start()} testId="keys-sign-in">
        {busy ? 'Waiting for the signature…' : 'Sign in'}
      </Button>
      {rejected && (
        <p className="text-muted" data-testid="keys-sign-in-rejected">
          Not signed in: you rejected the message.
        </p>
      )}
      {failure && <ErrorPanel title="Could not sign in" error={failure} />}
    </div>
  );
}
