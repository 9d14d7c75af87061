import { Globe } from 'lucide-react';
import { useState } from 'react';
import { ErrorPanel } from '../components/ErrorPanel';
import { failureOf } from '../failureOf';
import { useSettingsStore } from '../store/settingsStore';
import { Button } from '../ui/Button';
import { Card } from '../ui/Card';
import { connectInjected, injectedProvider } from '../wallet/injectedWallet';
import { useWallet, type WalletFailure } from '../wallet/walletStore';

/** In a browser with a wallet extension, that wallet can sign instead of the app's signers (it also sends). */
export function BrowserWalletSetup() {
  const { injected, chooseInjected } = useWallet();
  const settings = useSettingsStore((store) => store.state);
  const [failure, setFailure] = useState<WalletFailure | null>(null);
  if (!injectedProvider()) return null;
  return (
    <Card
      testId="browser-wallet"
      title={
        <span className="inline-flex items-center gap-2">
          <Globe size={16} aria-hidden="true" className="text-muted" /> Browser wallet
        </span>
      }
    >
      {injected ? (
        <div className="flex flex-wrap items-center gap-3">
          <p className="min-w-0 flex-1">
            Signing with the browser wallet as{' '}
            <code className="break-all" data-testid="browser-wallet-address">
              {injected}
            </code>
            ; it sends what it signs.
          </p>
          <Button size="sm" onClick={() => chooseInjected(null)}>
            Use the app's signer instead
          </Button>
        </div>
      ) : (
        <div className="flex flex-wrap items-center gap-3">
          <Button
            variant="primary"
            testId="browser-wallet-connect"
            disabled={settings.status !== 'ready'}
            onClick={() => {
              if (settings.status !== 'ready') return;
              setFailure(null);
              connectInjected(settings.settings.chainId).then(chooseInjected, (cause: unknown) =>
                setFailure(failureOf(cause)),
              );
            }}
          >
            Sign with the browser wallet
          </Button>
          <p className="text-xs text-muted">A wallet extension in this browser signs and sends instead of the app.</p>
        </div>
      )}
      {failure && <ErrorPanel title="The browser wallet did not connect" error={failure} />}
    </Card>
  );
}
