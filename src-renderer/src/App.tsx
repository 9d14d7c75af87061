import { type ReactNode, useEffect } from 'react';
import { shortAddress } from './format';
import { ActivityPage } from './pages/ActivityPage';
import { InspectPage } from './pages/InspectPage';
import { KeysPage } from './pages/KeysPage';
import { LaunchesPage } from './pages/LaunchesPage';
import { LaunchPage } from './pages/LaunchPage';
import { ReferralsPage } from './pages/ReferralsPage';
import { RequestsPage } from './pages/RequestsPage';
import { SettingsPage } from './pages/SettingsPage';
import { TokenPage } from './pages/TokenPage';
import { ReviewScreen } from './review/ReviewScreen';
import { useDocumentTitle } from './router/documentTitle';
import { Link } from './router/Link';
import { type Route, useRouter } from './router/routes';
import { useSettingsStore } from './store/settingsStore';
import { activeAddress, useWallet } from './wallet/walletStore';

const NAV: { to: string; label: string; page: Route['page'] }[] = [
  { to: '/', label: 'Launches', page: 'launches' },
  { to: '/launch', label: 'Launch a token', page: 'launch' },
  { to: '/referrals', label: 'Referrals', page: 'referrals' },
  { to: '/keys', label: 'API keys', page: 'keys' },
  { to: '/requests', label: 'Requests', page: 'requests' },
  { to: '/activity', label: 'Activity', page: 'activity' },
  { to: '/inspect', label: 'Inspect', page: 'inspect' },
  { to: '/settings', label: 'Settings', page: 'settings' },
];

function Page({ route }: { route: Route }): ReactNode {
  switch (route.page) {
    case 'launches':
      return <LaunchesPage />;
    case 'token':
      return <TokenPage address={route.address} />;
    case 'launch':
      return <LaunchPage />;
    case 'referrals':
      return <ReferralsPage />;
    case 'keys':
      return <KeysPage />;
    case 'requests':
      return <RequestsPage />;
    case 'inspect':
      return <InspectPage />;
    case 'activity':
      return <ActivityPage />;
    case 'settings':
      return <SettingsPage />;
    case 'not-found':
      return (
        <p data-testid="not-found">
          There is no page at <code>{route.path}</code>. <Link to="/">See the launches</Link>.
        </p>
      );
  }
}

export function App() {
  const settings = useSettingsStore((store) => store.state);
  const loadSettings = useSettingsStore((store) => store.load);
  const route = useRouter((store) => store.route);
  const signer = useWallet(activeAddress);
  const refreshWallet = useWallet((store) => store.refresh);
  useDocumentTitle(route);

  useEffect(() => {
    void loadSettings();
    void refreshWallet();
  }, [loadSettings, refreshWallet]);

  return (
    <>
      <header className="header">
        <h1>Launchpad Companion</h1>
        <p>
          {settings.status === 'ready' && (
            <>
              <span className="badge" data-testid="network">
                {settings.settings.network}
              </span>{' '}
              chainId <span data-testid="chain-id">{settings.settings.chainId}</span>{' '}
            </>
          )}
          <Link to="/settings" testId="signer-badge" className="badge">
            {signer ? shortAddress(signer) : 'no signer'}
          </Link>
        </p>
      </header>
      <nav className="nav">
        {NAV.map((item) => (
          <Link
            key={item.page}
            to={item.to}
            testId={`nav-${item.page}`}
            className={route.page === item.page ? 'current' : undefined}
          >
            {item.label}
          </Link>
        ))}
      </nav>
      <main>
        <Page route={route} />
      </main>
      <ReviewScreen />
    </>
  );
}
