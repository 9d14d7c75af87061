import { Usb } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import type { SavedAppSettings } from '../../../src-shared/appChannelTypes';
import { ErrorPanel } from '../components/ErrorPanel';
import { failureOf } from '../failureOf';
import { Badge } from '../ui/Badge';
import { Button } from '../ui/Button';
import { Card } from '../ui/Card';
import { invoke } from '../wallet/appChannel';
import { LedgerBlindSigningGuide } from '../wallet/LedgerBlindSigningGuide';
import { useWallet, type WalletFailure } from '../wallet/walletStore';

/** A Ledger account: list the device's accounts on a derivation path, use one, and its Ethereum app's state. */
export function LedgerSetup() {
  const { status, info, run, busy } = useWallet();
  const id = useId();
  const [template, setTemplate] = useState<'live' | 'legacy'>('live');
  // The path saved in Settings is where the account list starts.
  useEffect(() => {
    if (!info?.settingsFile) return;
    invoke<{ saved: SavedAppSettings | null }>('settings.get').then(
      ({ saved }) => saved?.ledgerTemplate && setTemplate(saved.ledgerTemplate),
      () => undefined,
    );
  }, [info?.settingsFile]);
  const [from, setFrom] = useState(0);
  const [accounts, setAccounts] = useState<{ path: string; address: string }[]>([]);
  const [failure, setFailure] = useState<WalletFailure | null>(null);
  const [listing, setListing] = useState(false);
  const list = async (start: number) => {
    setListing(true);
    setFailure(null);
    try {
      setAccounts(await invoke('ledger.addresses', { template, from: start, count: 5 }));
      setFrom(start);
    } catch (cause) {
      setFailure(failureOf(cause));
    } finally {
      setListing(false);
    }
  };
  return (
    <Card
      title={
        <span className="inline-flex items-center gap-2">
          <Usb size={16} aria-hidden="true" className="text-muted" /> Ledger
        </span>
      }
      actions={status?.active === 'ledger' && <Badge tone="up">signing</Badge>}
    >
      <div data-testid="ledger" className="flex flex-col gap-3">
        {status?.ledger && (
          <div className="flex flex-wrap items-center gap-3">
            <div className="min-w-0 flex-1">
              <code className="font-mono break-all">{status.ledger.address}</code>
              <div className="text-xs text-muted">
                on <code>{status.ledger.path}</code>
              </div>
            </div>
            {status.active !== 'ledger' && (
              <Button variant="primary" size="sm" onClick={() => void run('signer.use', { kind: 'ledger' })}>
                Sign with the Ledger
              </Button>
            )}
          </div>
        )}
        {status?.ledger && status.ledgerApp && (
          <p data-testid="ledger-blind-signing" data-state={status.ledgerApp.blindSigning ? 'on' : 'off'}>
            Ethereum app {status.ledgerApp.version}: blind signing{' '}
            {status.ledgerApp.blindSigning ? (
              <Badge tone="up">on, so it can sign trades, launches and approvals</Badge>
            ) : (
              <Badge tone="warn">off</Badge>
            )}
          </p>
        )}
        {status?.ledger && status.ledgerApp?.blindSigning === false && <LedgerBlindSigningGuide />}
        <div className="flex flex-wrap items-end gap-3">
          <div className="flex min-w-64 flex-1 flex-col gap-1.5">
            <label htmlFor={`${id}-path`} className="text-[0.8125rem] font-medium">
              Derivation path
            </label>
            <select
              id={`${id}-path`}
              value={template}
              onChange={(e) => setTemplate(e.target.value as 'live' | 'legacy')}
            >
              <option value="live">Ledger Live ({info?.ledgerPaths.live})</option>
              <option value="legacy">Legacy / MetaMask ({info?.ledgerPaths.legacy})</option>
            </select>
          </div>
          <Button disabled={listing} onClick={() => void list(0)}>
            {listing ? 'Reading the Ledger…' : 'List accounts'}
          </Button>
        </div>
        {failure && <ErrorPanel title="The Ledger did not answer" error={failure} />}
        {accounts.length > 0 && (
          <table className="w-full">
            <thead>
              <tr>
                <th scope="col">Path</th>
                <th scope="col">Address</th>
                <th scope="col" className="text-right">
                  <span className="sr-only">Use</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {accounts.map((account) => (
                <tr key={account.path}>
                  <td>
                    <code className="text-xs">{account.path}</code>
                  </td>
                  <td>
                    <code className="text-xs break-all">{account.address}</code>
                  </td>
                  <td className="text-right">
                    <Button size="sm" disabled={busy} onClick={() => void run('ledger.use', { path: account.path })}>
                      Use
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {accounts.length > 0 && (
          <Button
            size="sm"
            variant="ghost"
            className="self-start"
            disabled={listing}
            onClick={() => void list(from + 5)}
          >
            More accounts
          </Button>
        )}
      </div>
    </Card>
  );
}
