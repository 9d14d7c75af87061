import type { TokenTrade } from '../api/tokens';
import { age, displayUnits, shortAddress } from '../format';

/** The token's latest trades, newest first. */
export function TokenTradesTable({
  trades,
  token,
  pair,
  now,
}: {
  trades: TokenTrade[];
  token: { symbol: string; decimals: number };
  pair: { symbol: string; decimals: number };
  now: number;
}) {
  if (trades.length === 0) {
    return (
      <p className="muted" data-testid="trades-empty">
        No trades yet.
      </p>
    );
  }
  const one = 10n ** BigInt(token.decimals);
  // A transaction may hold more than one trade: the key counts them.
  const seen = new Map<string, number>();
  return (
    <table className="tk-trades" data-testid="trades">
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">Side</th>
          <th scope="col">{token.symbol}</th>
          <th scope="col">{pair.symbol}</th>
          <th scope="col">Price</th>
          <th scope="col">Trader</th>
          <th scope="col">Transaction</th>
        </tr>
      </thead>
      <tbody>
        {trades.map((trade) => {
          const tokenWei = BigInt(trade.tokenWei);
          const price = tokenWei === 0n ? null : (BigInt(trade.pairWei) * one) / tokenWei;
          const nth = seen.get(trade.tx) ?? 0;
          seen.set(trade.tx, nth + 1);
          return (
            <tr key={`${trade.tx}-${nth}`} data-testid="trade-row" data-side={trade.side} data-tx={trade.tx}>
              <td title={trade.at}>{age(trade.at, now)}</td>
              <td className={`tk-side-${trade.side}`}>{trade.side}</td>
              <td>{displayUnits(trade.tokenWei, token.decimals)}</td>
              <td>{displayUnits(trade.pairWei, pair.decimals)}</td>
              <td>{price === null ? '—' : displayUnits(price, pair.decimals)}</td>
              <td>
                <code title={trade.trader}>{shortAddress(trade.trader)}</code>
              </td>
              <td>
                <code title={trade.tx}>{shortAddress(trade.tx)}</code>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
