import { useState } from 'react';
import type { Address } from 'viem';
import { ErrorPanel } from '../components/ErrorPanel';
import { failureOf } from '../failureOf';
import { CreatedKeyPanel } from '../keys/CreatedKeyPanel';
import { CreateKeyForm } from '../keys/CreateKeyForm';
import { KeyList } from '../keys/KeyList';
import { useKeyList } from '../keys/keyListState';
import type { CreatedKey } from '../keys/keysApi';
import { SignInPanel } from '../keys/SignInPanel';
import { signOut } from '../keys/signIn';
import { Link } from '../router/Link';
import { activeAddress, useWallet, type WalletFailure } from '../wallet/walletStore';

function KeysOff() {
  return (
    <section className="panel" data-testid="keys-off">
      <h3>API keys are switched off on this server</h3>
      <p>Every endpoint works without a key: leave out the x-api-key header.</p>
    </section>
  );
}

function KeysOf({ wallet }: { wallet: Address }) {
  const { list, load } = useKeyList(wallet);
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const [signOutFailure, setSignOutFailure] = useState<WalletFailure | null>(null);

  async function leave() {
    setSignOutFailure(null);
    try {
      await signOut();
      await load();
    } catch (cause) {
      setSignOutFailure(failureOf(cause));
    }
  }

  if (list.status === 'off') return <KeysOff />;
  return (
    <>
      {created && <CreatedKeyPanel created={created} onDone={() => setCreated(null)} />}
      <CreateKeyForm
        wallet={wallet}
        onCreated={(key) => {
          setCreated(key);
          void load();
        }}
      />
      <section className="panel" data-testid="keys-list" data-state={list.status}>
        <h3>Your keys</h3>
        {list.status === 'loading' && <p className="muted">Loading…</p>}
        {list.status === 'signed-out' && (
          <SignInPanel wallet={wallet} reason={list.reason} onSignedIn={() => void load()} />
        )}
        {list.status === 'error' && (
          <ErrorPanel title="Could not list the keys" error={list.error} onRetry={() => void load()} />
        )}
        {list.status === 'ready' && (
          <>
            <KeyList keys={list.keys} onChanged={() => void load()} />
            <p>
              <button type="button" onClick={() => void leave()} data-testid="keys-sign-out">
                Sign out of this browser
              </button>
            </p>
          </>
        )}
        {signOutFailure && <ErrorPanel title="Could not sign out" error={signOutFailure} />}
      </section>
    </>
  );
}

/** The signer's wallet's API keys: create one by signing a message, list and revoke them once signed in. */
export function KeysPage() {
  const wallet = useWallet(activeAddress);
  return (
    <>
      <h2>API keys</h2>
      {wallet ? (
        <KeysOf key={wallet} wallet={wallet} />
      ) : (
        <p data-testid="no-signer">
          Set up a signer in <Link to="/settings">Settings</Link> to create and manage its API keys.
        </p>
      )}
    </>
  );
}
