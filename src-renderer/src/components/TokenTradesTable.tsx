import { formatAmount, formatExact, formatUsd, usdValue } from '../../../src-shared/format/numbers';
import { formatAge, formatLocalTime } from '../../../src-shared/format/times';
import type { TokenTrade } from '../api/tokens';
import { shortAddress } from '../format';
import { Amount } from '../ui/Amount';
import { Badge } from '../ui/Badge';
import { Empty } from '../ui/Empty';
import { CopyIcon } from './CopyIcon';
import { tradePriceWei } from './tokenDayStats';

/** The token's latest trades, newest first, the launch's first buy among them; figures right-aligned. */
export function TokenTradesTable({
  trades,
  token,
  pair,
  pairUsd,
  now,
}: {
  trades: TokenTrade[];
  token: { symbol: string; decimals: number };
  pair: { symbol: string; decimals: number };
  /** Dollars per whole unit of the pair, for the dollar value of each trade; null without a price. */
  pairUsd: number | null;
  now: number;
}) {
  if (trades.length === 0) {
    return (
      <Empty title="No trades yet" testId="trades-empty">
        Buys and sells through the router appear here once their block is indexed.
      </Empty>
    );
  }
  // A transaction may hold more than one trade: the key counts them.
  const seen = new Map<string, number>();
  return (
    <div className="overflow-x-auto">
      <table data-testid="trades" className="w-full">
        <thead>
          <tr>
            <th scope="col">Age</th>
            <th scope="col">Side</th>
            <th scope="col" className="num">
              {pair.symbol}
            </th>
            <th scope="col" className="num">
              {token.symbol}
            </th>
            <th scope="col" className="num">
              Price
            </th>
            <th scope="col">Trader</th>
            <th scope="col">Transaction</th>
          </tr>
        </thead>
        <tbody>
          {trades.map((trade) => {
            const price = tradePriceWei(trade, token.decimals);
            const nth = seen.get(trade.tx) ?? 0;
            seen.set(trade.tx, nth + 1);
            const buy = trade.side === 'buy';
            const priceUsd = price === null ? null : usdValue(price, pair.decimals, pairUsd);
            return (
              <tr
                key={`${trade.tx}-${nth}`}
                data-testid="trade-row"
                data-side={trade.side}
                data-tx={trade.tx}
                data-first-buy={trade.firstBuy ? 'yes' : undefined}
              >
                <td className="whitespace-nowrap text-muted" title={formatLocalTime(trade.at)}>
                  {formatAge(trade.at, now)}
                </td>
                <td className="whitespace-nowrap">
                  <Badge tone={buy ? 'up' : 'down'}>{buy ? 'Buy' : 'Sell'}</Badge>
                  {trade.firstBuy && (
                    <Badge
                      tone="primary"
                      className="ml-1"
                      testId="trade-first-buy"
                      title="The launch's first buy, made in the launch transaction"
                    >
                      First buy
                    </Badge>
                  )}
                </td>
                <td className="num">
                  <Amount wei={trade.pairWei} decimals={pair.decimals} usdPerUnit={pairUsd} significant={5} stacked />
                </td>
                <td className="num">
                  <Amount wei={trade.tokenWei} decimals={token.decimals} significant={5} compact />
                </td>
                <td className="num">
                  {price === null ? (
                    '—'
                  ) : (
                    <span
                      className="inline-flex flex-col items-end leading-tight"
                      title={`${formatExact(price, pair.decimals)} ${pair.symbol} per ${token.symbol}`}
                    >
                      <span>{formatAmount(price, pair.decimals, { significant: 4 })}</span>
                      {priceUsd !== null && <span className="text-xs text-muted">{formatUsd(priceUsd)}</span>}
                    </span>
                  )}
                </td>
                <td>
                  <span className="inline-flex items-center gap-0.5">
                    <code title={trade.trader} className="text-xs">
                      {shortAddress(trade.trader)}
                    </code>
                    <CopyIcon text={trade.trader} label="Copy the trader's address" />
                  </span>
                </td>
                <td>
                  <span className="inline-flex items-center gap-0.5">
                    <code title={trade.tx} className="text-xs">
                      {shortAddress(trade.tx)}
                    </code>
                    <CopyIcon text={trade.tx} label="Copy the transaction hash" testId="trade-copy-tx" />
                  </span>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
