import {
  Coins,
  Flame,
  Gift,
  History,
  Inbox,
  KeyRound,
  type LucideIcon,
  Rocket,
  ScanSearch,
  Settings,
  Star,
  WalletCards,
} from 'lucide-react';
import { Link } from '../router/Link';
import { type Route, useRouter } from '../router/routes';
import { cn } from '../ui/cn';

interface NavItem {
  to: string;
  label: string;
  page: Route['page'];
  icon: LucideIcon;
}

const NAV: NavItem[] = [
  { to: '/', label: 'Launches', page: 'launches', icon: Flame },
  { to: '/watchlist', label: 'Watchlist', page: 'watchlist', icon: Star },
  { to: '/launch', label: 'Launch a token', page: 'launch', icon: Rocket },
  { to: '/portfolio', label: 'Portfolio', page: 'portfolio', icon: WalletCards },
  { to: '/creator', label: 'Your launches', page: 'creator', icon: Coins },
  { to: '/requests', label: 'Requests', page: 'requests', icon: Inbox },
  { to: '/activity', label: 'Activity', page: 'activity', icon: History },
  { to: '/referrals', label: 'Referrals', page: 'referrals', icon: Gift },
  { to: '/keys', label: 'API keys', page: 'keys', icon: KeyRound },
  { to: '/inspect', label: 'Inspect', page: 'inspect', icon: ScanSearch },
  { to: '/settings', label: 'Settings', page: 'settings', icon: Settings },
];

/** The page a route belongs to in the navigation (a token page belongs to the launches). */
const sectionOf = (page: Route['page']): Route['page'] => (page === 'token' ? 'launches' : page);

/**
 * The app's navigation: icons with labels from 1280 px, icons alone (named by their tooltip and for screen readers)
 * below. `badges` puts a count beside a page (requests waiting).
 */
export function Sidebar({ badges = {} }: { badges?: Partial<Record<Route['page'], number>> }) {
  const route = useRouter((store) => store.route);
  const section = sectionOf(route.page);
  return (
    <aside className="w-16 shrink-0 border-r border-line bg-surface xl:w-56">
      <div className="sticky top-0 flex flex-col">
        <Link
          to="/"
          className="flex h-14 items-center gap-2.5 border-b border-line px-4 text-fg no-underline"
          title="Launchpad Companion"
        >
          <span className="inline-flex size-8 shrink-0 items-center justify-center rounded-lg bg-primary text-primary-fg">
            <Rocket size={18} aria-hidden="true" />
          </span>
          <span className="hidden text-[0.9375rem] leading-tight font-bold xl:inline">Launchpad Companion</span>
        </Link>
        <nav aria-label="Pages" className="flex flex-col gap-0.5 p-2" data-testid="nav">
          {NAV.map(({ to, label, page, icon: Icon }) => {
            const current = section === page;
            const count = badges[page] ?? 0;
            return (
              <Link
                key={page}
                to={to}
                testId={`nav-${page}`}
                title={label}
                current={current}
                className={cn(
                  'relative flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium no-underline',
                  current ? 'bg-primary-soft text-link' : 'text-muted hover:bg-raised hover:text-fg',
                )}
              >
                <Icon size={18} aria-hidden="true" className="shrink-0" />
                <span className="sr-only xl:not-sr-only">{label}</span>
                {count > 0 && (
                  <span
                    data-testid={`nav-${page}-count`}
                    className="absolute top-1 left-7 min-w-4 rounded-full bg-primary px-1 text-center text-[0.625rem] leading-4 font-bold text-primary-fg xl:static xl:ml-auto xl:text-xs xl:leading-5"
                  >
                    {count}
                    <span className="sr-only"> waiting</span>
                  </span>
                )}
              </Link>
            );
          })}
        </nav>
      </div>
    </aside>
  );
}
