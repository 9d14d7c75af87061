import { useQuery } from '@tanstack/react-query';
import { ArrowDown, ArrowUp, Eye } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { type Address, formatUnits, getAddress, isAddress, isAddressEqual } from 'viem';
import { formatAmount, formatUsd } from '../../../src-shared/format/numbers';
import { fetchPositions, type PositionRow, type Positions } from '../api/positions';
import { ErrorPanel } from '../components/ErrorPanel';
import { ChangeText } from '../components/PriceChange';
import { opensOnClick, TokenNameCell } from '../components/TokenNameCell';
import { failureOf } from '../failureOf';
import {
  DEFAULT_SORT,
  nextSort,
  type PositionSort,
  type PositionSortKey,
  sortPositions,
} from '../portfolio/positionSort';
import { Link } from '../router/Link';
import { useRouter } from '../router/routes';
import { Badge } from '../ui/Badge';
import { Button } from '../ui/Button';
import { Card } from '../ui/Card';
import { cn } from '../ui/cn';
import { Empty } from '../ui/Empty';
import { PageHeader } from '../ui/PageHeader';
import { Stat } from '../ui/Stat';
import { activeAddress, useWallet } from '../wallet/walletStore';

/** How often the positions are read again while the page is open: prices move with every trade. */
const REFRESH_MS = 10_000;

type PairAmount = PositionRow['value'];

/** Dollars with their sign, as a profit reads: +$12.30, −$4.56 (a real minus), $0. */
function signedUsd(usd: string): string {
  const value = Number(usd);
  if (value === 0) return formatUsd(0);
  return `${value > 0 ? '+' : '−'}${formatUsd(Math.abs(value))}`;
}

/** A pair amount with its sign, for the line under a profit. */
function signedPair(amount: PairAmount, decimals: number, symbol: string): string {
  const wei = BigInt(amount.wei);
  const text = formatAmount(wei < 0n ? -wei : wei, decimals, { significant: 4 });
  return `${wei > 0n ? '+' : wei < 0n ? '−' : ''}${text} ${symbol}`;
}

/**
 * Dollars per whole token held, for display: the cost's dollars over the balance. A launch's token is worth a
 * millionth of a dollar or less, so the API's per-token figure (to a millionth) would often read $0.
 */
function averageCostUsd(row: PositionRow): number | null {
  const held = Number(formatUnits(BigInt(row.balance.wei), row.token.decimals));
  return row.cost.usd === null || held === 0 ? null : Number(row.cost.usd) / held;
}

const tone = (wei: bigint) => (wei > 0n ? 'text-up' : wei < 0n ? 'text-down' : 'text-muted');

/** A figure in dollars with its pair amount under it; the pair amount alone when the pair has no dollar price. */
function Figure({
  amount,
  decimals,
  symbol,
  signed = false,
  usd = amount.usd === null ? null : Number(amount.usd),
  testId,
}: {
  amount: PairAmount;
  decimals: number;
  symbol: string;
  signed?: boolean;
  /** The dollars shown, when the amount's own (to a millionth) would round a tiny figure away. */
  usd?: number | null;
  testId: string;
}) {
  const pair = signed
    ? signedPair(amount, decimals, symbol)
    : `${formatAmount(BigInt(amount.wei), decimals, { significant: 4 })} ${symbol}`;
  const main = usd === null ? pair : signed ? signedUsd(amount.usd ?? '0') : formatUsd(usd);
  return (
    <td className="num" data-testid={testId} data-wei={amount.wei}>
      <span className="inline-flex flex-col items-end leading-tight">
        <span className={cn('font-semibold', signed && tone(BigInt(amount.wei)))}>{main}</span>
        {usd !== null && <span className="text-xs text-muted">{pair}</span>}
      </span>
    </td>
  );
}

const COLUMNS: { key: PositionSortKey; label: string; title?: string; num: boolean }[] = [
  { key: 'token', label: 'Token', num: false },
  { key: 'balance', label: 'Balance', num: true, title: 'Tokens held now, read from the chain' },
  { key: 'value', label: 'Value', num: true, title: 'The balance at the pool price now' },
  { key: 'averageCost', label: 'Avg cost', num: true, title: 'Cost per whole token held' },
  { key: 'realized', label: 'Realized', num: true, title: 'Profit taken by sales, after the site fee' },
  { key: 'unrealized', label: 'Unrealized', num: true, title: 'Value now less the cost of what is held' },
  {
    key: 'change',
    label: '24h',
    num: true,
    title: 'The pool price now against the price at the start of the last 24 h',
  },
];

function PositionsTable({
  rows,
  sort,
  onSort,
}: {
  rows: PositionRow[];
  sort: PositionSort;
  onSort(key: PositionSortKey): void;
}) {
  const navigate = useRouter((store) => store.navigate);
  return (
    <div className="overflow-x-auto">
      <table data-testid="positions" className="w-full min-w-[56rem] table-fixed">
        <colgroup>
          <col />
          <col className="w-[8rem]" />
          <col className="w-[8.5rem]" />
          <col className="w-[8.5rem]" />
          <col className="w-[8.5rem]" />
          <col className="w-[8.5rem]" />
          <col className="w-[5.5rem]" />
        </colgroup>
        <thead>
          <tr>
            {COLUMNS.map((column) => {
              const sorted = sort.key === column.key;
              const Arrow = sort.descending ? ArrowDown : ArrowUp;
              return (
                <th
                  key={column.key}
                  scope="col"
                  className={cn(column.num && 'num')}
                  title={column.title}
                  aria-sort={sorted ? (sort.descending ? 'descending' : 'ascending') : 'none'}
                >
                  <button
                    type="button"
                    data-testid={`sort-${column.key}`}
                    onClick={() => onSort(column.key)}
                    className={cn(
                      'inline-flex cursor-pointer items-center gap-1 border-0 bg-transparent p-0 font-[inherit] tracking-[inherit] uppercase',
                      sorted ? 'text-fg' : 'text-muted hover:text-fg',
                    )}
                  >
                    {column.label}
                    {sorted && <Arrow size={12} aria-hidden="true" />}
                  </button>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <PositionLine key={row.token.address} row={row} open={() => navigate(`/token/${row.token.address}`)} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function PositionLine({ row, open }: { row: PositionRow; open(): void }) {
  const { token } = row;
  const pair = token.pair;
  const closed = BigInt(row.balance.wei) === 0n;
  return (
    <tr
      // The whole row opens the token, as in the launches list; the name stays the link keyboards and readers use.
      onClick={opensOnClick(open)}
      data-testid="position-row"
      data-token={token.address}
      data-closed={closed ? 'yes' : undefined}
      className={cn('cursor-pointer hover:bg-raised', closed && 'text-muted')}
    >
      <TokenNameCell token={token} to={`/token/${token.address}`} testIds="position">
        <span>{closed ? 'closed' : `${pair.symbol} pair`}</span>
      </TokenNameCell>
      <td className="num" data-testid="position-balance" title={`${row.balance.amount} ${token.symbol}`}>
        {formatAmount(BigInt(row.balance.wei), token.decimals, { significant: 4, compact: true })}
      </td>
      <Figure amount={row.value} decimals={pair.decimals} symbol={pair.symbol} testId="position-value" />
      {row.averageCost ? (
        <Figure
          amount={row.averageCost}
          decimals={pair.decimals}
          symbol={pair.symbol}
          usd={averageCostUsd(row)}
          testId="position-avg-cost"
        />
      ) : (
        <td className="num text-muted" data-testid="position-avg-cost">
          —
        </td>
      )}
      <Figure amount={row.realized} decimals={pair.decimals} symbol={pair.symbol} signed testId="position-realized" />
      <Figure
        amount={row.unrealized}
        decimals={pair.decimals}
        symbol={pair.symbol}
        signed
        testId="position-unrealized"
      />
      <td className="num" data-testid="position-change">
        <ChangeText pct={row.change24h.pct} />
      </td>
    </tr>
  );
}

/** The totals on top: dollars over the priced positions, each pair currency's sum under them. */
function Totals({ totals }: { totals: Positions['totals'] }) {
  const pairs = (figure: 'value' | 'cost' | 'realized' | 'unrealized', signed: boolean) =>
    totals.pairs
      .map((total) =>
        signed
          ? signedPair(total[figure], total.pair.decimals, total.pair.symbol)
          : `${formatAmount(BigInt(total[figure].wei), total.pair.decimals, { significant: 4 })} ${total.pair.symbol}`,
      )
      .join(' · ');
  const profit = (usd: string) => <span className={tone(BigInt(Math.sign(Number(usd))))}>{signedUsd(usd)}</span>;
  return (
    <Card testId="portfolio-totals" className="mb-4">
      <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        <Stat label="Value" sub={<span data-testid="total-value-pairs">{pairs('value', false)}</span>}>
          <span data-testid="total-value">{formatUsd(Number(totals.value))}</span>
        </Stat>
        <Stat label="Cost" sub={<span data-testid="total-cost-pairs">{pairs('cost', false)}</span>}>
          <span data-testid="total-cost">{formatUsd(Number(totals.cost))}</span>
        </Stat>
        <Stat label="Realized profit" sub={<span data-testid="total-realized-pairs">{pairs('realized', true)}</span>}>
          <span data-testid="total-realized">{profit(totals.realized)}</span>
        </Stat>
        <Stat
          label="Unrealized profit"
          sub={<span data-testid="total-unrealized-pairs">{pairs('unrealized', true)}</span>}
        >
          <span data-testid="total-unrealized">{profit(totals.unrealized)}</span>
        </Stat>
      </div>
      {totals.unpriced.length > 0 && (
        <p className="mt-3 text-xs text-muted" data-testid="totals-unpriced">
          {totals.unpriced.length === 1 ? 'One position has' : `${totals.unpriced.length} positions have`} no dollar
          price and is left out of the dollar totals.
        </p>
      )}
    </Card>
  );
}

/** Whether `shown` is the signer's wallet (a string that is no address is nobody's). */
function sameWallet(shown: string, signer: string | null): boolean {
  return signer !== null && isAddress(shown, { strict: false }) && isAddressEqual(shown, signer as Address);
}

/** The address box: a wallet typed or pasted is shown read-only; a bad one is named before anything is asked. */
function AddressForm({ shown, signer }: { shown: string | null; signer: string | null }) {
  const navigate = useRouter((store) => store.navigate);
  const [text, setText] = useState(shown ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const typed = text.trim();
    if (!isAddress(typed, { strict: false })) {
      setProblem(
        typed === ''
          ? 'Type or paste a wallet address.'
          : `"${typed.length > 20 ? `${typed.slice(0, 20)}…` : typed}" is not a wallet address: it is 0x followed by 40 hex digits.`,
      );
      return;
    }
    setProblem(null);
    navigate(`/portfolio?address=${getAddress(typed)}`);
  };
  return (
    <form onSubmit={submit} className="mb-4 flex flex-col gap-1.5" noValidate>
      <label htmlFor="portfolio-address" className="text-[0.8125rem] font-medium">
        Wallet
      </label>
      <div className="flex flex-wrap items-center gap-2">
        <input
          id="portfolio-address"
          data-testid="portfolio-address"
          value={text}
          onChange={(event) => setText(event.target.value)}
          placeholder="0x… any wallet, to look at its positions"
          spellCheck={false}
          autoComplete="off"
          aria-invalid={problem !== null}
          className="tabular w-[28rem] max-w-full font-mono text-sm"
        />
        <Button type="submit" testId="portfolio-show">
          Show
        </Button>
        {signer && shown !== null && !sameWallet(shown, signer) && (
          <Button
            variant="ghost"
            testId="portfolio-mine"
            onClick={() => {
              setText(signer);
              setProblem(null);
              navigate('/portfolio');
            }}
          >
            Back to my wallet
          </Button>
        )}
      </div>
      {problem && (
        <p className="text-xs text-down" role="alert" data-testid="portfolio-address-error">
          {problem}
        </p>
      )}
    </form>
  );
}

/**
 * Issue 31's portfolio: the signer's positions (or any wallet's, read-only) with totals on top, sorted by value; a row
 * opens its token. Every figure is the service's (GET /wallets/{address}/positions), exact in wei, only written here.
 */
export function PortfolioPage() {
  const signer = useWallet(activeAddress);
  const asked = useRouter((store) => store.query.get('address'));
  // An address from the page's link goes to the service as it is: a bad one gets the API's own error and fix.
  const shown = asked !== null ? (isAddress(asked, { strict: false }) ? getAddress(asked) : asked) : signer;
  const notAddress = shown !== null && !isAddress(shown, { strict: false });
  const watching = shown !== null && !notAddress && !sameWallet(shown, signer);
  const [closed, setClosed] = useState(false);
  const [sort, setSort] = useState<PositionSort>(DEFAULT_SORT);
  const query = useQuery({
    queryKey: ['positions', shown, closed],
    queryFn: () => fetchPositions(shown as string, closed),
    enabled: shown !== null,
    refetchInterval: REFRESH_MS,
  });
  const error = query.error ? failureOf(query.error) : null;
  const answer = query.data ?? null;
  const rows = answer ? sortPositions(answer.positions, sort) : [];

  return (
    <div data-testid="portfolio-page" data-wallet={shown ?? undefined}>
      <PageHeader
        title="Portfolio"
        description="What a wallet holds of the tokens it traded here: value at the pool price now, cost by average, and profit taken and on paper."
        actions={
          <label className="flex cursor-pointer items-center gap-2 text-sm">
            <input
              type="checkbox"
              data-testid="portfolio-closed"
              checked={closed}
              onChange={(event) => setClosed(event.target.checked)}
            />
            Show closed positions
          </label>
        }
      />
      <AddressForm key={shown ?? ''} shown={shown} signer={signer} />
      {shown === null && (
        <Card testId="portfolio-no-wallet">
          <Empty title="No wallet to show">
            Import or connect a signer in <Link to="/settings">Settings</Link> to see your positions here, or paste any
            wallet's address above to look at it.
          </Empty>
        </Card>
      )}
      {shown !== null && (
        <>
          <div className="mb-3 flex flex-wrap items-center gap-2 text-sm">
            {notAddress ? (
              <Badge tone="down" testId="portfolio-not-address">
                Not an address
              </Badge>
            ) : watching ? (
              <Badge tone="warn" testId="portfolio-watching" title="Not the signer's wallet: nothing here can trade it">
                <Eye size={12} aria-hidden="true" />
                Watching · read-only
              </Badge>
            ) : (
              <Badge tone="primary" testId="portfolio-own">
                Your signer
              </Badge>
            )}
            <span className="font-mono text-xs break-all text-muted" data-testid="portfolio-wallet">
              {shown}
            </span>
            {watching && (
              <span className="text-xs text-muted">
                {signer ? "Not your signer's wallet" : 'No signer'}: this page only reads it, nothing here trades it.
              </span>
            )}
          </div>
          {error && (
            <ErrorPanel
              title="Could not read the positions"
              error={error}
              // Asking again about a refused address gets the same answer: only a failure to read is retried.
              onRetry={notAddress ? undefined : () => void query.refetch()}
            />
          )}
          {!answer && !error && (
            <p className="text-muted" data-testid="portfolio-loading" aria-busy="true">
              Loading positions…
            </p>
          )}
          {answer && (
            <>
              <Totals totals={answer.totals} />
              <Card flush testId="portfolio-positions">
                {rows.length === 0 ? (
                  <Empty title={closed ? 'No positions' : 'No open positions'} testId="portfolio-empty">
                    {watching
                      ? 'This wallet has not traded a token launched here'
                      : 'Buy a token on its page to open a position'}
                    {closed ? '.' : ' (sold-out ones show with "Show closed positions").'}{' '}
                    <Link to="/">See the launches</Link>.
                  </Empty>
                ) : (
                  <PositionsTable rows={rows} sort={sort} onSort={(key) => setSort((now) => nextSort(now, key))} />
                )}
              </Card>
            </>
          )}
        </>
      )}
    </div>
  );
}
