import { useEffect, useState } from 'react';
import type { AppInfo, SavedAppSettings } from '../../../src-shared/appChannelTypes';
import { ErrorPanel } from '../components/ErrorPanel';
import { failureOf } from '../failureOf';
import { invoke } from '../wallet/appChannel';
import type { WalletFailure } from '../wallet/walletStore';

/**
 * The app's running setup, and the form that changes it for the next start: network and its RPC URL, the data
 * directory, the loopback rate limits, the Ledger path and third-party fetches. Main validates and saves; a restart
 * applies it.
 */
export function AppSettingsForm({ info }: { info: AppInfo }) {
  const [network, setNetwork] = useState(info.network);
  const [rpcUrl, setRpcUrl] = useState(info.rpcUrl ?? '');
  const [dataDir, setDataDir] = useState('');
  const [rateLimits, setRateLimits] = useState(info.rateLimits);
  const [ledgerTemplate, setLedgerTemplate] = useState<'live' | 'legacy'>('live');
  const [thirdPartyFetches, setThirdPartyFetches] = useState(info.thirdPartyFetches);
  const [failure, setFailure] = useState<WalletFailure | null>(null);
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    void invoke<{ saved: SavedAppSettings | null }>('settings.get').then(
      ({ saved: stored }) => {
        if (stored?.dataDir) setDataDir(stored.dataDir);
        if (stored?.ledgerTemplate) setLedgerTemplate(stored.ledgerTemplate);
        if (stored?.thirdPartyFetches !== undefined) setThirdPartyFetches(stored.thirdPartyFetches);
      },
      (cause: unknown) => setFailure(failureOf(cause)),
    );
  }, []);

  const save = async () => {
    setFailure(null);
    setSaved(false);
    try {
      await invoke('settings.save', {
        network,
        rpcUrl: rpcUrl.trim() || null,
        dataDir: dataDir.trim() || null,
        rateLimits,
        ledgerTemplate,
        thirdPartyFetches,
      });
      setSaved(true);
    } catch (cause) {
      setFailure(failureOf(cause));
    }
  };

  return (
    <section className="panel">
      <h2>This app</h2>
      <p data-testid="app-running">
        Running on <strong data-testid="app-network">{info.network}</strong> (chain {info.chainId}) through{' '}
        {info.rpcUrl ?? 'the embedded devnet'}, data in <code>{info.dataDir}</code>, rate limits on loopback{' '}
        {info.rateLimits ? 'on (120 quotes, 60 builds a minute per client)' : 'off'}, logos of other people's launches{' '}
        <span data-testid="app-third-party-fetches">{info.thirdPartyFetches ? 'fetched' : 'not fetched'}</span>.
      </p>
      {info.settingsFile === null ? (
        <p className="muted">This run takes its setup from flags and environment variables only.</p>
      ) : (
        <form
          className="settings-form"
          onSubmit={(event) => {
            event.preventDefault();
            void save();
          }}
        >
          <label>
            Network{' '}
            <select
              data-testid="settings-network"
              value={network}
              onChange={(e) => setNetwork(e.target.value as typeof network)}
            >
              <option value="devnet">devnet (embedded)</option>
              <option value="testnet">BSC testnet (97)</option>
              <option value="mainnet">BSC mainnet (56)</option>
            </select>
          </label>
          <label>
            RPC URL{' '}
            <input
              data-testid="settings-rpc"
              placeholder={network === 'devnet' ? 'none: the embedded devnet' : 'https://… or wss://…'}
              value={rpcUrl}
              onChange={(e) => setRpcUrl(e.target.value)}
            />
          </label>
          <label>
            Data directory{' '}
            <input
              data-testid="settings-data-dir"
              placeholder="the default"
              value={dataDir}
              onChange={(e) => setDataDir(e.target.value)}
            />
          </label>
          <label>
            <input type="checkbox" checked={rateLimits} onChange={(e) => setRateLimits(e.target.checked)} /> Rate limits
            for clients on loopback
          </label>
          <label>
            <input
              type="checkbox"
              data-testid="settings-third-party-fetches"
              checked={thirdPartyFetches}
              onChange={(e) => setThirdPartyFetches(e.target.checked)}
            />{' '}
            Fetch the logos of other people's launches (on by default)
          </label>
          <p className="muted">
            Each launch's metadata and logo are fetched from wherever its creator put them, which shows this computer's
            IP address to them. Off, those launches show no logo; your own launches, stored here, still do.
          </p>
          <label>
            Ledger path{' '}
            <select value={ledgerTemplate} onChange={(e) => setLedgerTemplate(e.target.value as 'live' | 'legacy')}>
              <option value="live">Ledger Live ({info.ledgerPaths.live})</option>
              <option value="legacy">Legacy / MetaMask ({info.ledgerPaths.legacy})</option>
            </select>
          </label>
          <p>
            <button type="submit" data-testid="settings-save">
              Save for the next start
            </button>{' '}
            {saved && (
              <span data-testid="settings-saved">
                Saved to <code>{info.settingsFile}</code>. Restart the app to apply it.
              </span>
            )}
          </p>
        </form>
      )}
      {failure && <ErrorPanel title="The settings were not saved" error={failure} />}
    </section>
  );
}
