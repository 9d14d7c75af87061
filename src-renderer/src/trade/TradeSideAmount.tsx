import type { Balances, Exact, Side, TokenInfo } from '../api/tokens';
import { Amount } from '../ui/Amount';
import { cn } from '../ui/cn';
import { Segmented } from '../ui/Segmented';
import { TradeQuickAmounts } from './TradeQuickAmounts';
import type { TradeEdit } from './useTradePanel';

/**
 * Buy or sell, which side is exact, and the amount: typed, with the wallet's balance of what it spends beside it
 * and quick amounts below. The field is marked when the wallet is short.
 */
export function TradeSideAmount({
  inputId,
  token,
  side,
  exact,
  amount,
  unit,
  short,
  balances,
  pairUsd,
  onEdit,
}: {
  inputId: string;
  token: TokenInfo;
  side: Side;
  exact: Exact;
  amount: string;
  unit: string;
  short: string | null;
  balances: Balances | null;
  pairUsd: number | null;
  onEdit(next: TradeEdit): void;
}) {
  const held = balances === null ? null : side === 'sell' ? balances.token : balances.pair;
  return (
    <>
      <Segmented
        label="Buy or sell"
        className="w-full [&>button]:flex-1 [&>button]:py-1.5"
        value={side}
        onChange={(value) => onEdit({ side: value })}
        options={[
          { value: 'buy', label: 'Buy', testId: 'trade-side-buy' },
          { value: 'sell', label: 'Sell', testId: 'trade-side-sell' },
        ]}
      />
      <div className="flex flex-col gap-1.5">
        <div className="flex items-center justify-between gap-2">
          <Segmented
            label="Which side is exact"
            size="sm"
            value={exact}
            onChange={(value) => onEdit({ exact: value })}
            options={[
              { value: 'in', label: side === 'buy' ? 'Amount to pay' : 'Amount to sell', testId: 'trade-exact-in' },
              {
                value: 'out',
                label: side === 'buy' ? 'Amount to get' : 'Amount to receive',
                testId: 'trade-exact-out',
              },
            ]}
          />
          {held && (
            <span className="text-xs text-muted" data-testid="trade-balance">
              Balance{' '}
              <Amount wei={held.wei} decimals={held.decimals} symbol={held.symbol} balance className="text-fg" />
            </span>
          )}
        </div>
        <label htmlFor={inputId} className="sr-only">
          Amount in {unit}
        </label>
        <div
          className={cn(
            'flex items-center gap-2 rounded-lg border bg-surface px-3 focus-within:border-primary',
            short ? 'border-down' : 'border-line-strong',
          )}
        >
          <input
            id={inputId}
            inputMode="decimal"
            autoComplete="off"
            placeholder="0.0"
            value={amount}
            onChange={(event) => onEdit({ amount: event.target.value })}
            data-testid="trade-amount"
            aria-invalid={short !== null}
            className="min-w-0 flex-1 border-0 bg-transparent px-0 py-2 text-lg font-semibold tabular shadow-none outline-none focus:ring-0"
          />
          <span data-testid="trade-amount-unit" className="shrink-0 font-semibold text-muted">
            {unit}
          </span>
        </div>
        <TradeQuickAmounts token={token} side={side} balances={balances} pairUsd={pairUsd} onEdit={onEdit} />
      </div>
    </>
  );
}
