import { Save } from 'lucide-react';
import { type ReactNode, useEffect, useId, useState } from 'react';
import type { AppInfo, SavedAppSettings } from '../../../src-shared/appChannelTypes';
import { formatExact } from '../../../src-shared/format/numbers';
import { DEFAULT_PUBLIC_LINK_BASE } from '../../../src-shared/publicLinkBase';
import { ErrorPanel } from '../components/ErrorPanel';
import { failureOf } from '../failureOf';
import { CopyButton } from '../referrals/CopyButton';
import { FundButton } from '../shell/RehearsalBanner';
import { Button } from '../ui/Button';
import { Card } from '../ui/Card';
import { invoke } from '../wallet/appChannel';
import type { WalletFailure } from '../wallet/walletStore';
import { LogosSwitch } from './LogosSwitch';
import { SettingsSection } from './SettingsSection';

/** The app's own scheme: the default base of shared links. */
const APP_SCHEME_BASE = DEFAULT_PUBLIC_LINK_BASE;

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-0.5 py-1.5">
      <dt className="text-muted">{label}</dt>
      <dd className="m-0 min-w-0 text-right break-all">{children}</dd>
    </div>
  );
}

/** What this run uses now: a restart applies what the form saves. */
function RunningNow({ info }: { info: AppInfo }) {
  return (
    <Card title="Running now">
      <dl className="m-0 divide-y divide-line" data-testid="app-running">
        <Row label="Network">
          <strong data-testid="app-network">{info.network}</strong>{' '}
          <span className="text-muted">chain {info.chainId}</span>
        </Row>
        {info.fork ? (
          <Row label="Rehearsal">
            <span data-testid="app-fork">
              a fork of {info.fork.sourceNetwork} (chain {info.fork.sourceChainId}) at block{' '}
              {formatExact(BigInt(info.fork.block), 0)} via <code className="text-xs">{info.fork.url}</code>; our
              contracts{' '}
              {info.fork.contracts === 'found' ? `are the ${info.fork.sourceNetwork}'s own` : 'were deployed into it'}
            </span>
          </Row>
        ) : (
          <Row label="RPC">{info.rpcUrl ?? 'the embedded devnet'}</Row>
        )}
        {(info.network === 'devnet' || info.network === 'fork') && (
          <Row label="Test BNB">
            <FundButton
              noSigner={<span className="text-muted">100 at a time for the signer's wallet, once one is set up</span>}
            />
          </Row>
        )}
        <Row label="Data">
          <code className="text-xs">{info.dataDir}</code>
        </Row>
        <Row label="Log file">
          {info.logFile ? (
            // Where to find the log to attach to a bug report.
            <span className="inline-flex flex-wrap items-center justify-end gap-2">
              <code className="text-xs" data-testid="app-log-file">
                {info.logFile}
              </code>
              <CopyButton text={info.logFile} testId="app-log-file-copy" />
            </span>
          ) : (
            <span className="text-muted" data-testid="app-log-file">
              none: this run logs to its terminal only (start it with --log-file FILE to keep one)
            </span>
          )}
        </Row>
        <Row label="Rate limits on loopback">
          {info.rateLimits ? 'on (120 quotes, 60 builds a minute per client)' : 'off'}
        </Row>
        <Row label="Private sending">
          {info.privateRpc ? (
            <span data-testid="app-private-rpc">
              launches{info.privateRpc.trades ? ', buys and sells' : ''} through{' '}
              <code className="text-xs">{info.privateRpc.url}</code>
            </span>
          ) : (
            <span className="text-muted" data-testid="app-private-rpc">
              off: everything goes through the RPC
            </span>
          )}
        </Row>
        <Row label="Logos of other people's launches">
          <span data-testid="app-third-party-fetches">
            {info.thirdPartyFetches
              ? 'fetched'
              : info.thirdPartyFetchesChosen
                ? 'not fetched'
                : 'not fetched (not chosen yet)'}
          </span>
        </Row>
        <Row label="Shared links open">
          <code className="text-xs">{info.publicLinkBase}</code>
        </Row>
      </dl>
    </Card>
  );
}

/**
 * The app's running setup, and the form that changes it for the next start: network and its RPC URL, a block
 * builder's private RPC for the launches (and trades), the data directory, the loopback rate limits, the Ledger path
 * and the public base of shared links. Main validates and saves; a restart applies it. Below it, Privacy: the switch
 * for other people's logos, which applies at once.
 */
export function AppSettingsForm({ info }: { info: AppInfo }) {
  const id = useId();
  const [network, setNetwork] = useState(info.network);
  const [rpcUrl, setRpcUrl] = useState(info.rpcUrl ?? '');
  const [privateRpcUrl, setPrivateRpcUrl] = useState('');
  const [privateTrades, setPrivateTrades] = useState(false);
  const [forkBlock, setForkBlock] = useState('');
  const [dataDir, setDataDir] = useState('');
  const [rateLimits, setRateLimits] = useState(info.rateLimits);
  const [ledgerTemplate, setLedgerTemplate] = useState<'live' | 'legacy'>('live');
  const [publicLinkBase, setPublicLinkBase] = useState(
    info.publicLinkBase === APP_SCHEME_BASE ? '' : info.publicLinkBase,
  );
  const [failure, setFailure] = useState<WalletFailure | null>(null);
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    void invoke<{ saved: SavedAppSettings | null }>('settings.get').then(
      ({ saved: stored }) => {
        if (stored?.dataDir) setDataDir(stored.dataDir);
        if (stored?.privateRpcUrl) setPrivateRpcUrl(stored.privateRpcUrl);
        if (stored?.privateTrades) setPrivateTrades(true);
        if (stored?.forkBlock != null) setForkBlock(String(stored.forkBlock));
        if (stored?.ledgerTemplate) setLedgerTemplate(stored.ledgerTemplate);
        if (stored?.publicLinkBase !== undefined) setPublicLinkBase(stored.publicLinkBase ?? '');
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
        privateRpcUrl: privateRpcUrl.trim() || null,
        privateTrades: Boolean(privateRpcUrl.trim()) && privateTrades,
        ...(network === 'fork' ? { forkBlock: forkBlock.trim() ? Number(forkBlock.trim()) : null } : {}),
        dataDir: dataDir.trim() || null,
        rateLimits,
        ledgerTemplate,
        publicLinkBase: publicLinkBase.trim() || null,
      });
      setSaved(true);
    } catch (cause) {
      setFailure(failureOf(cause));
    }
  };

  const label = 'text-[0.8125rem] font-medium';
  if (info.settingsFile === null) {
    return (
      <>
        <SettingsSection
          id="network"
          title="Network & data"
          description="The chain this app follows and where it keeps its data."
        >
          <RunningNow info={info} />
          <p className="text-muted">This run takes its setup from flags and environment variables only.</p>
        </SettingsSection>
        <PrivacySection info={info} />
      </>
    );
  }
  return (
    <>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <SettingsSection
          id="network"
          title="Network & data"
          description="The chain this app follows, where it keeps its data, and where shared links point. Saved for the next start."
        >
          <RunningNow info={info} />
          <Card title="For the next start">
            <div className="grid gap-4 lg:grid-cols-2">
              <div className="flex flex-col gap-1.5">
                <label htmlFor={`${id}-network`} className={label}>
                  Network
                </label>
                <select
                  id={`${id}-network`}
                  data-testid="settings-network"
                  value={network}
                  onChange={(e) => setNetwork(e.target.value as typeof network)}
                >
                  <option value="devnet">devnet (embedded)</option>
                  <option value="testnet">BSC testnet (97)</option>
                  <option value="mainnet">BSC mainnet (56)</option>
                  <option value="fork">Rehearsal: a fork of BSC (chain 31338)</option>
                </select>
                {network === 'fork' && (
                  <p className="text-xs text-muted" data-testid="settings-fork-help">
                    Runs here on a copy of the chain behind the RPC URL, with its real pools and prices, under a chain
                    id of its own: nothing signed in a rehearsal is valid on BNB Chain. Forking more than 128 blocks
                    back needs an archive RPC.
                  </p>
                )}
              </div>
              <div className="flex flex-col gap-1.5">
                <label htmlFor={`${id}-rpc`} className={label}>
                  {network === 'fork' ? 'RPC URL of the chain to fork' : 'RPC URL'}
                </label>
                <input
                  id={`${id}-rpc`}
                  data-testid="settings-rpc"
                  placeholder={
                    network === 'devnet'
                      ? 'none: the embedded devnet'
                      : network === 'fork'
                        ? 'https://…'
                        : 'https://… or wss://…'
                  }
                  value={rpcUrl}
                  onChange={(e) => setRpcUrl(e.target.value)}
                />
              </div>
              <div className="flex flex-col gap-1.5 lg:col-span-2">
                <label htmlFor={`${id}-private-rpc`} className={label}>
                  Private RPC URL (a block builder's)
                </label>
                <input
                  id={`${id}-private-rpc`}
                  data-testid="settings-private-rpc"
                  aria-describedby={`${id}-private-rpc-help`}
                  placeholder="none: launches go through the RPC above"
                  value={privateRpcUrl}
                  onChange={(e) => setPrivateRpcUrl(e.target.value)}
                />
                <p id={`${id}-private-rpc-help`} className="text-xs text-muted">
                  Block builders on BNB Chain offer private RPC endpoints: a transaction sent there goes into a block
                  without waiting in the public mempool, where bots watch for launches to get in front of. Set one, and
                  your launches go only there; reads, approvals and receipts stay on the RPC above. If it refuses or
                  cannot be reached, the launch fails and is never sent publicly instead. For this network only.
                </p>
                <label className="mt-1 flex items-center gap-2">
                  <input
                    type="checkbox"
                    data-testid="settings-private-trades"
                    checked={privateTrades && Boolean(privateRpcUrl.trim())}
                    disabled={!privateRpcUrl.trim()}
                    onChange={(e) => setPrivateTrades(e.target.checked)}
                  />
                  Send buys and sells through it too
                </label>
              </div>
              {network === 'fork' && (
                <div className="flex flex-col gap-1.5">
                  <label htmlFor={`${id}-fork-block`} className={label}>
                    Fork block
                  </label>
                  <input
                    id={`${id}-fork-block`}
                    data-testid="settings-fork-block"
                    inputMode="numeric"
                    placeholder="resume the last rehearsal, or the newest block"
                    value={forkBlock}
                    onChange={(e) => setForkBlock(e.target.value.replace(/[^\d]/g, ''))}
                  />
                </div>
              )}
              <div className="flex flex-col gap-1.5">
                <label htmlFor={`${id}-data`} className={label}>
                  Data directory
                </label>
                <input
                  id={`${id}-data`}
                  data-testid="settings-data-dir"
                  placeholder="the default"
                  value={dataDir}
                  onChange={(e) => setDataDir(e.target.value)}
                />
              </div>
              <div className="flex flex-col gap-1.5">
                <label htmlFor={`${id}-ledger`} className={label}>
                  Ledger path
                </label>
                <select
                  id={`${id}-ledger`}
                  value={ledgerTemplate}
                  onChange={(e) => setLedgerTemplate(e.target.value as 'live' | 'legacy')}
                >
                  <option value="live">Ledger Live ({info.ledgerPaths.live})</option>
                  <option value="legacy">Legacy / MetaMask ({info.ledgerPaths.legacy})</option>
                </select>
              </div>
              <div className="flex flex-col gap-1.5 lg:col-span-2">
                <label htmlFor={`${id}-links`} className={label}>
                  Public base of shared links
                </label>
                <input
                  id={`${id}-links`}
                  data-testid="settings-public-link-base"
                  placeholder={`${APP_SCHEME_BASE} (opens this app)`}
                  value={publicLinkBase}
                  onChange={(e) => setPublicLinkBase(e.target.value)}
                />
                <p className="text-xs text-muted">
                  The https:// site that serves this app's pages, if you host one: referral and token links are made
                  under it. Left empty, the app offers no link to share (one to this computer or to the app's own scheme
                  opens for nobody else), only a token's address and its explorer page. Never this computer's own
                  address.
                </p>
              </div>
              <label className="flex items-center gap-2 lg:col-span-2">
                <input type="checkbox" checked={rateLimits} onChange={(e) => setRateLimits(e.target.checked)} /> Rate
                limits for clients on loopback
              </label>
            </div>
          </Card>
          <div className="flex flex-wrap items-center gap-3">
            <Button type="submit" variant="primary" icon={<Save size={16} aria-hidden="true" />} testId="settings-save">
              Save for the next start
            </Button>
            {saved && (
              <span data-testid="settings-saved">
                Saved to <code className="break-all">{info.settingsFile}</code>. Restart the app to apply it.
              </span>
            )}
          </div>
          {failure && <ErrorPanel title="The settings were not saved" error={failure} />}
        </SettingsSection>
      </form>
      <PrivacySection info={info} />
    </>
  );
}

/** What this app fetches from elsewhere: the switch for other people's logos, applied at once and kept. */
function PrivacySection({ info }: { info: AppInfo }) {
  return (
    <SettingsSection
      id="privacy"
      title="Privacy"
      description="What this app downloads from other people's servers, and so who learns this computer's IP address."
    >
      <LogosSwitch info={info} />
    </SettingsSection>
  );
}
