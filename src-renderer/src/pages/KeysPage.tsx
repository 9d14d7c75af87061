import { LogOut } from 'lucide-react';
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
import { Button } from '../ui/Button';
import { Card } from '../ui/Card';
import { Empty } from '../ui/Empty';
import { PageHeader } from '../ui/PageHeader';
import { activeAddress, useWallet, type WalletFailure } from '../wallet/walletStore';

function KeysOff() {
  return (
    <Card testId="keys-off">
      <Empty title="API keys are switched off on this server">
        Every endpoint works without a key: leave out the x-api-key header.
      </Empty>
    </Card>
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
    <div className="flex flex-col gap-4">
      {created && <CreatedKeyPanel created={created} onDone={() => setCreated(null)} />}
      <CreateKeyForm
        wallet={wallet}
        onCreated={(key) => {
          setCreated(key);
          void load();
        }}
      />
      <Card
        flush
        testId="keys-list"
        data-state={list.status}
        title={
          <>
            Your keys{' '}
            <span className="ml-1 font-mono text-xs font-normal text-muted" title="The wallet the keys belong to">
              {wallet}
            </span>
          </>
        }
        actions={
          list.status === 'ready' && (
            <Button
              size="sm"
              variant="ghost"
              icon={<LogOut size={14} aria-hidden="true" />}
              onClick={() => void leave()}
              testId="keys-sign-out"
            >
              Sign out of this browser
            </Button>
          )
        }
      >
        {list.status === 'loading' && <p className="px-4 pb-4 text-muted">Loading…</p>}
        {list.status === 'signed-out' && (
          <SignInPanel wallet={wallet} reason={list.reason} onSignedIn={() => void load()} />
        )}
        {list.status === 'error' && (
          <div className="px-4 pb-4">
            <ErrorPanel title="Could not list the keys" error={list.error} onRetry={() => void load()} />
          </div>
        )}
        {list.status === 'ready' && <KeyList keys={list.keys} onChanged={() => void load()} />}
        {signOutFailure && <ErrorPanel title="Could not sign out" error={signOutFailure} />}
      </Card>
    </div>
  );
}

/** The signer's wallet's API keys: create one by signing a message, list and revoke them once signed in. */
export function KeysPage() {
  const wallet = useWallet(activeAddress);
  return (
    <>
      <PageHeader
        title="API keys"
        description="Keys let your bots quote, build and prepare requests for this wallet. A bot never signs: what it prepares waits in Requests for you."
      />
      {wallet ? (
        <KeysOf key={wallet} wallet={wallet} />
      ) : (
        <Card>
          <Empty title="No signer yet" testId="no-signer">
            Set up a signer in <Link to="/settings">Settings</Link> to create and manage its API keys.
          </Empty>
        </Card>
      )}
    </>
  );
}
