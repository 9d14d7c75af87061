import { type ReactNode, useEffect } from 'react';
import { ActivityPage } from './pages/ActivityPage';
import { CreatorPage } from './pages/CreatorPage';
import { InspectPage } from './pages/InspectPage';
import { KeysPage } from './pages/KeysPage';
import { LaunchesPage } from './pages/LaunchesPage';
import { LaunchPage } from './pages/LaunchPage';
import { PortfolioPage } from './pages/PortfolioPage';
import { ReferralsPage } from './pages/ReferralsPage';
import { RequestsPage } from './pages/RequestsPage';
import { SettingsPage } from './pages/SettingsPage';
import { TokenPage } from './pages/TokenPage';
import { WatchlistPage } from './pages/WatchlistPage';
import { useWaitingRequests } from './requests/useIntents';
import { ReviewScreen } from './review/ReviewScreen';
import { useDocumentTitle } from './router/documentTitle';
import { Link } from './router/Link';
import { type Route, useRouter } from './router/routes';
import { LogosChoiceDialog } from './settings/LogosChoiceDialog';
import { HeaderBalance } from './shell/HeaderBalance';
import { HeaderSearch } from './shell/HeaderSearch';
import { RehearsalBanner } from './shell/RehearsalBanner';
import { Sidebar } from './shell/Sidebar';
import { useSettingsStore } from './store/settingsStore';
import { Badge } from './ui/Badge';
import { Empty } from './ui/Empty';
import { SignerChip } from './wallet/SignerState';
import { useWallet } from './wallet/walletStore';
import { useWebNotifications } from './watchlist/webNotifications';

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
    case 'portfolio':
      return <PortfolioPage />;
    case 'settings':
      return <SettingsPage />;
    case 'creator':
      return <CreatorPage />;
    case 'watchlist':
      return <WatchlistPage />;
    case 'not-found':
      return (
        <div data-testid="not-found" className="rounded-xl border border-line bg-surface">
          <Empty title="There is no page here">
            Nothing lives at <code>{route.path}</code>. <Link to="/">See the launches</Link>.
          </Empty>
        </div>
      );
  }
}

/** The chain the app runs on, in the header: devnet, testnet, mainnet or fork (a rehearsal) with its chain id. */
function NetworkBadge() {
  const settings = useSettingsStore((store) => store.state);
  if (settings.status !== 'ready') return null;
  const { network, chainId } = settings.settings;
  return (
    <Badge
      tone={network === 'mainnet' ? 'up' : network === 'testnet' || network === 'fork' ? 'warn' : 'primary'}
      title={`Chain id ${chainId}`}
    >
      <span data-testid="network">{network}</span>
      <span className="font-normal">
        <span className="sr-only">chain id </span>
        <span data-testid="chain-id">{chainId}</span>
      </span>
    </Badge>
  );
}

export function App() {
  const loadSettings = useSettingsStore((store) => store.load);
  const route = useRouter((store) => store.route);
  const refreshWallet = useWallet((store) => store.refresh);
  const waitingRequests = useWaitingRequests();
  useDocumentTitle(route);
  useWebNotifications();

  useEffect(() => {
    void loadSettings();
    void refreshWallet();
  }, [loadSettings, refreshWallet]);

  return (
    <div className="flex min-h-screen">
      <Sidebar badges={{ requests: waitingRequests }} />
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-20 flex h-14 items-center gap-3 border-b border-line bg-surface/90 px-5 backdrop-blur">
          <HeaderSearch />
          <div className="ml-auto flex items-center gap-2.5">
            <NetworkBadge />
            <HeaderBalance />
            <SignerChip />
          </div>
        </header>
        <RehearsalBanner />
        <main className="mx-auto w-full max-w-[1240px] flex-1 px-5 py-6">
          <Page route={route} />
        </main>
      </div>
      <ReviewScreen />
      <LogosChoiceDialog />
    </div>
  );
}
