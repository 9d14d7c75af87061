import { useQuery } from '@tanstack/react-query';
import { ChevronDown, ChevronRight, Lock } from 'lucide-react';
import { useState } from 'react';
import { type Address, isAddressEqual } from 'viem';
import type { ActivityEntry, ActivityMovement } from '../../../src-shared/appChannelTypes';
import { formatAge, formatLocalTime } from '../../../src-shared/format/times';
import { type ActivityAction, groupActivity, launchOf, tradeMoveOf } from '../activity/activityActions';
import { useDollars } from '../api/dollars';
import { fetchToken } from '../api/tokens';
import { ErrorPanel } from '../components/ErrorPanel';
import { HashChip } from '../components/HashChip';
import { useTokenUsd } from '../components/useTokenUsd';
import { failureOf } from '../failureOf';
import { isPoolTakenLaunch } from '../launch/poolTaken';
import { Link } from '../router/Link';
import { useSettingsStore } from '../store/settingsStore';
import { Amount } from '../ui/Amount';
import { Badge, type Tone } from '../ui/Badge';
import { Card } from '../ui/Card';
import { Empty } from '../ui/Empty';
import { PageHeader } from '../ui/PageHeader';
import { TokenLogo } from '../ui/TokenLogo';
import { invoke } from '../wallet/appChannel';
import { approvalName, type StepCurrency } from '../wallet/stepNames';
import { useWallet } from '../wallet/walletStore';

const STATUS: Record<ActivityEntry['status'], { text: string; tone: Tone }> = {
  signing: { text: 'Waiting for the signer', tone: 'warn' },
  signed: { text: 'Signed', tone: 'primary' },
  sent: { text: 'Pending', tone: 'warn' },
  confirmed: { text: 'Confirmed', tone: 'up' },
  reverted: { text: 'Reverted', tone: 'down' },
  failed: { text: 'Failed', tone: 'down' },
};

/** Often enough to see a transaction go from sent to confirmed; slower while nothing is in flight. */
const POLL_BUSY_MS = 3000;
const POLL_IDLE_MS = 15_000;
const IN_FLIGHT = new Set<ActivityEntry['status']>(['signing', 'signed', 'sent']);
/** A token's name, symbol and pair do not change. */
const TOKEN_STALE_MS = 5 * 60_000;

function When({ at }: { at: number }) {
  return (
    <span className="flex flex-col leading-tight">
      <span className="tabular">{formatLocalTime(at)}</span>
      <span className="text-xs text-muted">{formatAge(at)}</span>
    </span>
  );
}

function StatusBadge({ entry }: { entry: ActivityEntry }) {
  const { text, tone } = STATUS[entry.status];
  return (
    <Badge tone={tone} testId="activity-status" title={entry.error ?? undefined}>
      {text}
    </Badge>
  );
}

/**
 * What arrived of one currency, from what the receipt moved: a token by address (`null` for a launch, whose token is
 * the one that arrived), or BNB, which a sale pays natively (or as WBNB where the wallet refused it). Null when the
 * entry has no receipt reading (not confirmed yet, or stored before the app kept them).
 */
function movedIn(moved: readonly ActivityMovement[], currency: Address | null, wbnb: string | null): string | null {
  const wanted = (entry: ActivityMovement) => {
    if (currency === null)
      return entry.currency !== 'BNB' && !(wbnb && isAddressEqual(entry.currency, wbnb as Address));
    if (entry.currency === 'BNB') return wbnb !== null && isAddressEqual(currency, wbnb as Address);
    return isAddressEqual(entry.currency, currency);
  };
  const found = moved.filter(wanted);
  return found.length === 0 ? null : found.reduce((sum, entry) => sum + BigInt(entry.wei), 0n).toString();
}

/** An action: its own row (what it paid and got, the token, status, hash), its approval steps folded under it. */
function ActionRows({ action }: { action: ActivityAction }) {
  const { head, steps } = action;
  const [open, setOpen] = useState(false);
  const { usdPerUnit } = useDollars();
  const settings = useSettingsStore((s) => s.state);
  const wbnb = settings.status === 'ready' ? settings.settings.contracts.wbnb : null;
  const trade = tradeMoveOf(head.data);
  const launch = trade ? null : launchOf(head.data);
  const tokenQuery = useQuery({
    queryKey: ['token', trade?.token ?? null],
    queryFn: () => fetchToken(trade?.token as string),
    enabled: trade !== null,
    staleTime: TOKEN_STALE_MS,
  });
  const token = tokenQuery.data ?? null;
  const pair = token?.quote ?? null;
  const { tokenUsd, pairUsd } = useTokenUsd(trade?.token ?? null, pair);
  const bnbUsd = wbnb ? usdPerUnit(wbnb) : null;

  // What the approvals let go of: the token for a sell, the pair for a buy paid in a token.
  const currency: StepCurrency | null =
    trade && token
      ? trade.side === 'sell'
        ? { symbol: token.symbol, decimals: token.decimals }
        : { symbol: token.quote.symbol, decimals: token.quote.decimals }
      : null;
  const title =
    trade && token
      ? `${trade.side === 'buy' ? 'Buy' : 'Sell'} ${token.symbol}`
      : head.step === 'main'
        ? head.title
        : approvalName(head.step, head.data, currency);

  // What the receipt says moved, once confirmed: exact, where the call itself gives only a floor or a ceiling.
  const moved = head.moved;
  const paidWei = moved?.paid[0]?.wei ?? null;
  const receivedWei = movedIn(
    moved?.received ?? [],
    trade ? (trade.side === 'buy' ? trade.token : trade.pair) : null,
    wbnb,
  );
  const paid =
    trade && token ? (
      <Amount
        wei={paidWei ?? trade.pay}
        decimals={trade.side === 'buy' ? token.quote.decimals : token.decimals}
        symbol={trade.side === 'buy' ? token.quote.symbol : token.symbol}
        usdPerUnit={trade.side === 'buy' ? pairUsd : tokenUsd}
        round={paidWei === null && trade.bound === 'maxPay' ? 'up' : 'nearest'}
        significant={5}
        stacked
        testId="activity-paid"
      />
    ) : head.value && head.value !== '0' ? (
      <Amount
        wei={head.value}
        decimals={18}
        symbol="BNB"
        usdPerUnit={bnbUsd}
        significant={5}
        stacked
        testId="activity-paid"
      />
    ) : null;
  const received =
    trade && token ? (
      <Amount
        wei={receivedWei ?? trade.receive}
        decimals={trade.side === 'buy' ? token.decimals : token.quote.decimals}
        symbol={trade.side === 'buy' ? token.symbol : token.quote.symbol}
        usdPerUnit={trade.side === 'buy' ? tokenUsd : pairUsd}
        round={receivedWei === null && trade.bound === 'minReceive' ? 'down' : 'nearest'}
        significant={5}
        stacked
        testId="activity-received"
      />
    ) : launch && receivedWei !== null ? (
      <Amount
        wei={receivedWei}
        decimals={18}
        symbol={launch.symbol}
        significant={5}
        stacked
        testId="activity-received"
      />
    ) : launch ? (
      <span className="text-muted">{launch.symbol}</span>
    ) : null;
  // Only a floor read from the call is "at least": what the receipt says arrived is what arrived.
  const atLeast = trade?.bound === 'minReceive' && receivedWei === null;

  return (
    <tbody data-testid="activity-action" data-group={action.groupId} className="border-b border-line last:border-b-0">
      <tr data-testid="activity-row" data-kind={head.kind} data-status={head.status} data-step={head.step}>
        <td className="whitespace-nowrap">
          <When at={head.createdAt} />
        </td>
        <td>
          <div className="flex min-w-0 items-center gap-2.5">
            {trade && token && <TokenLogo src={token.image} symbol={token.symbol} address={token.address} size="sm" />}
            <div className="flex min-w-0 flex-col gap-0.5">
              <span className="font-semibold" title={head.title}>
                {title}
              </span>
              <span className="flex flex-wrap items-center gap-x-2 text-xs text-muted">
                {trade && token && (
                  <Link to={`/token/${token.address}`} testId="activity-token" className="no-underline">
                    {token.name}
                  </Link>
                )}
                {steps.length > 0 && (
                  <button
                    type="button"
                    className="inline-flex cursor-pointer items-center gap-0.5 text-muted hover:text-fg"
                    aria-expanded={open}
                    onClick={() => setOpen(!open)}
                    data-testid="activity-steps-toggle"
                  >
                    {open ? (
                      <ChevronDown size={13} aria-hidden="true" />
                    ) : (
                      <ChevronRight size={13} aria-hidden="true" />
                    )}
                    {steps.length} approval{steps.length === 1 ? '' : 's'} first
                  </button>
                )}
              </span>
            </div>
          </div>
        </td>
        <td className="num">{paid ?? <span className="text-muted">—</span>}</td>
        <td className="num">
          {received ? (
            <span className="inline-flex flex-col items-end">
              {atLeast && <span className="text-2xs text-muted">at least</span>}
              {received}
            </span>
          ) : (
            <span className="text-muted">—</span>
          )}
        </td>
        <td>
          <StatusBadge entry={head} />
          {head.error && <div className="mt-1 max-w-56 text-xs break-words text-down">{head.error}</div>}
          {/* The form is not kept here, but the launch page keeps it: launching again starts there. */}
          {isPoolTakenLaunch(head) && (
            <Link to="/launch" testId="activity-launch-again" className="mt-1 inline-block text-xs font-semibold">
              Launch again from the launch page
            </Link>
          )}
        </td>
        <td>
          {head.hash ? <HashChip hash={head.hash} testId="activity-hash" /> : <span className="text-muted">—</span>}
          {head.sentPrivately && (
            <div
              className="mt-1 flex items-center gap-1 text-xs text-muted"
              data-testid="activity-private"
              title="Sent through the private RPC set in Settings: it never waited in the public mempool."
            >
              <Lock size={12} aria-hidden="true" />
              sent privately
            </div>
          )}
        </td>
      </tr>
      {steps.map((step, i) => (
        <tr
          key={step.id}
          hidden={!open}
          data-testid="activity-row"
          data-kind={step.kind}
          data-status={step.status}
          data-step={step.step}
          className="bg-raised/50 text-sm"
        >
          <td className="whitespace-nowrap text-muted">
            <When at={step.createdAt} />
          </td>
          <td colSpan={3}>
            <span className="text-muted">
              Step {i + 1} of {steps.length + 1} ·{' '}
            </span>
            {approvalName(step.step, step.data, currency)}
          </td>
          <td>
            <StatusBadge entry={step} />
            {step.error && <div className="mt-1 max-w-56 text-xs break-words text-down">{step.error}</div>}
          </td>
          <td>{step.hash ? <HashChip hash={step.hash} testId="activity-hash" /> : ''}</td>
        </tr>
      ))}
    </tbody>
  );
}

/**
 * What the app signed and sent, newest first and kept across restarts: one row per action (a trade, a launch) with
 * its approval steps folded in, what it paid and got, its token, status and hashes. Polled while something is in
 * flight.
 */
export function ActivityPage() {
  const available = useWallet((s) => s.available);
  const query = useQuery({
    queryKey: ['app', 'activity'],
    queryFn: () => invoke<ActivityEntry[]>('activity.list', { limit: 200 }),
    enabled: available,
    refetchInterval: (q) => (q.state.data?.some((entry) => IN_FLIGHT.has(entry.status)) ? POLL_BUSY_MS : POLL_IDLE_MS),
  });
  const entries = query.data ?? null;

  const header = <PageHeader title="Activity" description="What this app signed and sent for you, newest first." />;
  if (!available) {
    return (
      <>
        {header}
        <Card>
          <Empty title="Activity lives in the app">
            Open the app with its token to see what it signed (see <Link to="/settings">Settings</Link>).
          </Empty>
        </Card>
      </>
    );
  }
  const actions = entries ? groupActivity(entries) : [];
  return (
    <>
      {header}
      {query.error && (
        <ErrorPanel
          title="Could not read the activity"
          error={failureOf(query.error)}
          onRetry={() => void query.refetch()}
        />
      )}
      {entries?.length === 0 && (
        <Card>
          <Empty title="Nothing signed yet" testId="activity-empty">
            Trades, approvals and launches you sign here show up in this list. Find a token on the{' '}
            <Link to="/">launches</Link> page to make your first trade.
          </Empty>
        </Card>
      )}
      {actions.length > 0 && (
        <Card flush>
          <div className="overflow-x-auto">
            <table data-testid="activity" className="w-full">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Action</th>
                  <th scope="col" className="num">
                    Paid
                  </th>
                  <th scope="col" className="num">
                    Received
                  </th>
                  <th scope="col">Status</th>
                  <th scope="col">Transaction</th>
                </tr>
              </thead>
              {actions.map((action) => (
                <ActionRows key={action.groupId} action={action} />
              ))}
            </table>
          </div>
        </Card>
      )}
    </>
  );
}
