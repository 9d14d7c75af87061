import { useEffect, useState } from 'react';
import type { SavedAppSettings } from '../../../src-shared/appChannelTypes';
import type { Settings } from '../api/settings';
import { ErrorPanel } from '../components/ErrorPanel';
import { failureOf } from '../failureOf';
import { AppSettingsForm } from '../settings/AppSettingsForm';
import { useSettingsStore } from '../store/settingsStore';
import { invoke } from '../wallet/appChannel';
import { connectInjected, injectedProvider } from '../wallet/injectedWallet';
import { LedgerBlindSigningGuide } from '../wallet/LedgerBlindSigningGuide';
import { useWallet, type WalletFailure } from '../wallet/walletStore';

/** Basis points as a percentage: 1500 -> "15%", 20 -> "0.2%". */
const percent = (bps: number): string => `${bps / 100}%`;

function ChainSettings({ settings }: { settings: Settings }) {
  const { fees } = settings;
  return (
    <>
      <section className="panel">
        <h2>Contracts</h2>
        <table>
          <tbody>
            {Object.entries(settings.contracts).map(([key, address]) => (
              <tr key={key} data-testid={`contract-${key}`}>
                <th scope="row">{key}</th>
                <td>{address ? <code>{address}</code> : <span className="muted">not deployed</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section className="panel">
        <h2>Fees</h2>
        <table>
          <tbody>
            <tr data-testid="fee-siteFeeBps">
              <th scope="row">Site fee (each trade)</th>
              <td>{percent(fees.siteFeeBps)}</td>
            </tr>
            <tr data-testid="fee-referrerBps">
              <th scope="row">Referrer instant cut (each trade)</th>
              <td>{percent(fees.referrerBps)}</td>
            </tr>
            <tr data-testid="fee-lifetimeReferralBps">
              <th scope="row">Referrer lifetime share (of site income)</th>
              <td>{percent(fees.lifetimeReferralBps)}</td>
            </tr>
          </tbody>
        </table>
      </section>
      <section className="panel">
        <h2>Pair currencies</h2>
        <table>
          <thead>
            <tr>
              <th scope="col">Symbol</th>
              <th scope="col">Address</th>
              <th scope="col">Decimals</th>
            </tr>
          </thead>
          <tbody>
            {settings.pairs.map((pair) => (
              <tr key={pair.address} data-testid={`pair-${pair.symbol}`}>
                <td>
                  {pair.symbol}
                  {pair.native && <span className="muted"> (paid natively)</span>}
                </td>
                <td>
                  <code>{pair.address}</code>
                </td>
                <td>{pair.decimals}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  );
}

function LocalKeySetup() {
  const { status, run, busy } = useWallet();
  const [privateKey, setPrivateKey] = useState('');
  const [passphrase, setPassphrase] = useState('');
  const localKey = status?.localKey;
  if (localKey) {
    return (
      <div data-testid="local-key">
        <p>
          Local key <code>{localKey.address}</code>{' '}
          <span className="badge" data-testid="local-key-state">
            {localKey.unlocked ? 'unlocked' : 'locked'}
          </span>
        </p>
        {!localKey.unlocked && (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              void run('signer.unlock', localKey.needsPassphrase ? { passphrase } : {}).then(() => setPassphrase(''));
            }}
          >
            {localKey.needsPassphrase && (
              <label>
                Passphrase{' '}
                <input
                  type="password"
                  data-testid="unlock-passphrase"
                  value={passphrase}
                  onChange={(e) => setPassphrase(e.target.value)}
                />
              </label>
            )}{' '}
            <button type="submit" disabled={busy} data-testid="unlock">
              Unlock
            </button>
          </form>
        )}
        <p>
          {localKey.unlocked && status?.active !== 'local' && (
            <button type="button" onClick={() => void run('signer.use', { kind: 'local' })}>
              Sign with this key
            </button>
          )}{' '}
          {localKey.unlocked && (
            <button type="button" onClick={() => void run('signer.lock')}>
              Lock
            </button>
          )}{' '}
          <button
            type="button"
            onClick={() => {
              if (confirm('Forget the local key? Only its encrypted file is deleted; keep your own copy of the key.')) {
                void run('signer.forget');
              }
            }}
          >
            Forget
          </button>
        </p>
      </div>
    );
  }
  return (
    <form
      data-testid="import-key"
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
      <p className="muted">
        The key is encrypted at rest in the data directory and stays in the app's main process; this page never sees it
        again.
      </p>
      <label>
        Private key{' '}
        <input
          type="password"
          autoComplete="off"
          data-testid="import-private-key"
          value={privateKey}
          onChange={(e) => setPrivateKey(e.target.value)}
        />
      </label>{' '}
      <label>
        Passphrase{' '}
        <input
          type="password"
          autoComplete="new-password"
          data-testid="import-passphrase"
          value={passphrase}
          onChange={(e) => setPassphrase(e.target.value)}
        />
      </label>{' '}
      <button type="submit" disabled={busy || !privateKey} data-testid="import-submit">
        Import
      </button>
    </form>
  );
}

function LedgerSetup() {
  const { status, info, run, busy } = useWallet();
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
    <div data-testid="ledger">
      {status?.ledger && (
        <p>
          Ledger account <code>{status.ledger.address}</code> on <code>{status.ledger.path}</code>
          {status.active !== 'ledger' && (
            <>
              {' '}
              <button type="button" onClick={() => void run('signer.use', { kind: 'ledger' })}>
                Sign with the Ledger
              </button>
            </>
          )}
        </p>
      )}
      {status?.ledger && status.ledgerApp && (
        <p data-testid="ledger-blind-signing" data-state={status.ledgerApp.blindSigning ? 'on' : 'off'}>
          Ethereum app {status.ledgerApp.version}: blind signing{' '}
          {status.ledgerApp.blindSigning ? 'on, so it can sign trades, launches and approvals' : 'off'}
        </p>
      )}
      {status?.ledger && status.ledgerApp?.blindSigning === false && <LedgerBlindSigningGuide />}
      <p>
        <label>
          Derivation path{' '}
          <select value={template} onChange={(e) => setTemplate(e.target.value as 'live' | 'legacy')}>
            <option value="live">Ledger Live ({info?.ledgerPaths.live})</option>
            <option value="legacy">Legacy / MetaMask ({info?.ledgerPaths.legacy})</option>
          </select>
        </label>{' '}
        <button type="button" disabled={listing} onClick={() => void list(0)}>
          {listing ? 'Reading the Ledger…' : 'List accounts'}
        </button>
      </p>
      {failure && <ErrorPanel title="The Ledger did not answer" error={failure} />}
      {accounts.length > 0 && (
        <table>
          <tbody>
            {accounts.map((account) => (
              <tr key={account.path}>
                <td>
                  <code>{account.path}</code>
                </td>
                <td>
                  <code>{account.address}</code>
                </td>
                <td>
                  <button type="button" disabled={busy} onClick={() => void run('ledger.use', { path: account.path })}>
                    Use
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {accounts.length > 0 && (
        <button type="button" disabled={listing} onClick={() => void list(from + 5)}>
          More accounts
        </button>
      )}
    </div>
  );
}

/** In a browser with a wallet extension, that wallet can sign instead of the app's signers (it also sends). */
function BrowserWalletSetup() {
  const { injected, chooseInjected } = useWallet();
  const settings = useSettingsStore((store) => store.state);
  const [failure, setFailure] = useState<WalletFailure | null>(null);
  if (!injectedProvider()) return null;
  return (
    <section className="panel" data-testid="browser-wallet">
      <h2>Browser wallet</h2>
      {injected ? (
        <p>
          Signing with the browser wallet as <code data-testid="browser-wallet-address">{injected}</code>; it sends what
          it signs.{' '}
          <button type="button" onClick={() => chooseInjected(null)}>
            Use the app's signer instead
          </button>
        </p>
      ) : (
        <p>
          <button
            type="button"
            data-testid="browser-wallet-connect"
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
          </button>
        </p>
      )}
      {failure && <ErrorPanel title="The browser wallet did not connect" error={failure} />}
    </section>
  );
}

function SignerSettings() {
  const { available, status, failure, info } = useWallet();
  if (!available) {
    return (
      <section className="panel" data-testid="signer-unavailable">
        <h2>Signer</h2>
        <p>
          This page was opened without the app's token, so it cannot reach the app's signers. Open the address the app
          printed when it started (it ends in <code>#app=…</code>).
        </p>
      </section>
    );
  }
  return (
    <>
      <section className="panel">
        <h2>Signer</h2>
        <p data-testid="signer-active">
          {status?.address ? (
            <>
              Signing as <code>{status.address}</code> with{' '}
              {status.active === 'ledger' ? 'the Ledger' : 'the local key'}
            </>
          ) : (
            'No signer yet: import a local key or connect a Ledger.'
          )}
        </p>
        {failure && <ErrorPanel title="The signer refused" error={failure} />}
        <h3>Local key</h3>
        <LocalKeySetup />
        <h3>Ledger</h3>
        <LedgerSetup />
      </section>
      {info && <AppSettingsForm info={info} />}
    </>
  );
}

export function SettingsPage() {
  const state = useSettingsStore((store) => store.state);
  const load = useSettingsStore((store) => store.load);
  const refresh = useWallet((store) => store.refresh);
  useEffect(() => {
    void refresh();
  }, [refresh]);
  return (
    <>
      <h2>Settings</h2>
      <BrowserWalletSetup />
      <SignerSettings />
      {state.status === 'error' && (
        <ErrorPanel title="Could not load the settings" error={state.error} onRetry={() => void load()} />
      )}
      {state.status === 'ready' && <ChainSettings settings={state.settings} />}
    </>
  );
}
