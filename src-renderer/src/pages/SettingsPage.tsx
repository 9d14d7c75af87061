import { useEffect } from 'react';
import { formatBps } from '../../../src-shared/inspect/humanUnits';
import type { Settings } from '../api/settings';
import { ErrorPanel } from '../components/ErrorPanel';
import { AppSettingsForm } from '../settings/AppSettingsForm';
import { BrowserWalletSetup } from '../settings/BrowserWalletSetup';
import { LedgerSetup } from '../settings/LedgerSetup';
import { LocalKeySetup } from '../settings/LocalKeySetup';
import { NotificationSettings } from '../settings/NotificationSettings';
import { SettingsSection } from '../settings/SettingsSection';
import { useSettingsStore } from '../store/settingsStore';
import { Badge } from '../ui/Badge';
import { Card } from '../ui/Card';
import { PageHeader } from '../ui/PageHeader';
import { useWallet } from '../wallet/walletStore';

function About({ settings }: { settings: Settings }) {
  const { fees } = settings;
  return (
    <SettingsSection
      id="about"
      title="About"
      description="The contracts this app talks to, the fees they take, and the currencies tokens pair with."
    >
      <div className="grid items-start gap-4 2xl:grid-cols-2">
        <Card title="Fees" flush>
          <table className="w-full">
            <tbody>
              <tr data-testid="fee-siteFeeBps">
                <th scope="row" className="font-normal">
                  Site fee (each trade)
                </th>
                <td className="num font-semibold">{formatBps(fees.siteFeeBps)}</td>
              </tr>
              <tr data-testid="fee-referrerBps">
                <th scope="row" className="font-normal">
                  Referrer instant cut (each trade)
                </th>
                <td className="num font-semibold">{formatBps(fees.referrerBps)}</td>
              </tr>
              <tr data-testid="fee-lifetimeReferralBps">
                <th scope="row" className="font-normal">
                  Referrer lifetime share (of site income)
                </th>
                <td className="num font-semibold">{formatBps(fees.lifetimeReferralBps)}</td>
              </tr>
            </tbody>
          </table>
        </Card>
        <Card title="Pair currencies" flush>
          <table className="w-full">
            <thead>
              <tr>
                <th scope="col">Symbol</th>
                <th scope="col">Contract</th>
                <th scope="col" className="num">
                  Decimals
                </th>
              </tr>
            </thead>
            <tbody>
              {settings.pairs.map((pair) => (
                <tr key={pair.address} data-testid={`pair-${pair.symbol}`}>
                  <td className="font-semibold">
                    {pair.symbol} {pair.native && <Badge>paid natively</Badge>}
                  </td>
                  <td>
                    <code className="text-xs break-all">{pair.address}</code>
                  </td>
                  <td className="num">{pair.decimals}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      </div>
      <Card title="Contracts" flush>
        <table className="w-full">
          <tbody>
            {Object.entries(settings.contracts).map(([key, address]) => (
              <tr key={key} data-testid={`contract-${key}`}>
                <th scope="row" className="font-normal">
                  {key}
                </th>
                <td>
                  {address ? (
                    <code className="text-xs break-all">{address}</code>
                  ) : (
                    <span className="text-muted">not deployed</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
    </SettingsSection>
  );
}

function Signer() {
  const { available, status, failure } = useWallet();
  return (
    <SettingsSection
      id="signer"
      title="Signer"
      description="What signs your trades: a local key kept encrypted here, a Ledger, or a wallet in this browser."
    >
      {available ? (
        <>
          <Card>
            <p data-testid="signer-active">
              {status?.address ? (
                <>
                  Signing as <code className="break-all">{status.address}</code> with{' '}
                  <strong>{status.active === 'ledger' ? 'the Ledger' : 'the local key'}</strong>
                </>
              ) : (
                'No signer yet: import a local key or connect a Ledger.'
              )}
            </p>
            {failure && <ErrorPanel title="The signer refused" error={failure} />}
          </Card>
          <LocalKeySetup />
          <LedgerSetup />
        </>
      ) : (
        <Card testId="signer-unavailable">
          <p>
            This page was opened without the app's token, so it cannot reach the app's signers. Open the address the app
            printed when it started (it ends in <code>#app=…</code>).
          </p>
        </Card>
      )}
      <BrowserWalletSetup />
    </SettingsSection>
  );
}

export function SettingsPage() {
  const state = useSettingsStore((store) => store.state);
  const load = useSettingsStore((store) => store.load);
  const { refresh, info } = useWallet();
  useEffect(() => {
    void refresh();
  }, [refresh]);
  return (
    <>
      <PageHeader
        title="Settings"
        description="The signer, the network and data, privacy, notifications, and what this app runs on."
      />
      <Signer />
      {info && <AppSettingsForm info={info} />}
      <NotificationSettings />
      {state.status === 'error' && (
        <ErrorPanel title="Could not load the settings" error={state.error} onRetry={() => void load()} />
      )}
      {state.status === 'ready' && <About settings={state.settings} />}
    </>
  );
}
