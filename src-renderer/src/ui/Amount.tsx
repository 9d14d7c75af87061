import { formatBalance } from '../../../src-shared/format/balance';
import { formatAmount, formatExact, formatUsd, usdValue } from '../../../src-shared/format/numbers';
import { cn } from './cn';

interface AmountProps {
  /** The amount in the unit's smallest denomination. */
  wei: bigint | string;
  decimals: number;
  symbol?: string;
  /** Dollars per whole unit, for the dollar value beside the amount; none shown when null or absent. */
  usdPerUnit?: number | null;
  /** Significant digits (4 to 6 in summaries). */
  significant?: number;
  compact?: boolean;
  /** `down` for a floor (get at least), `up` for a ceiling (pay at most); nearest otherwise. */
  round?: 'nearest' | 'down' | 'up';
  testId?: string;
  className?: string;
  /** The dollar value under the amount instead of after it. */
  stacked?: boolean;
  /**
   * A wallet's balance: written by the one balance formatter (the whole integer part, six significant digits at
   * least, rounded down), so a balance reads the same on every card. `significant` and `round` are then not used.
   */
  balance?: boolean;
}

/**
 * An amount as a trader reads it: a few significant digits with separators, the exact value on hover (and in
 * `data-wei` for tests and copying), and its dollar value beside it when the unit has a dollar price.
 */
export function Amount({
  wei,
  decimals,
  symbol,
  usdPerUnit,
  significant,
  compact,
  round,
  testId,
  className,
  stacked,
  balance,
}: AmountProps) {
  const value = typeof wei === 'bigint' ? wei : BigInt(wei);
  const exact = `${formatExact(value, decimals)}${symbol ? ` ${symbol}` : ''}`;
  const usd = usdValue(value, decimals, usdPerUnit);
  return (
    <span
      data-testid={testId}
      data-wei={value.toString()}
      title={exact}
      className={cn('tabular whitespace-nowrap', stacked && 'inline-flex flex-col items-end leading-tight', className)}
    >
      <span>
        {balance ? formatBalance(value, decimals) : formatAmount(value, decimals, { significant, compact, round })}
        {symbol && <span className="ml-1 text-muted">{symbol}</span>}
      </span>
      {usd !== null && (
        <span className={cn('text-muted', stacked ? 'text-xs' : 'ml-1.5 text-[0.92em]')} data-usd={usd}>
          {stacked ? formatUsd(usd) : `≈ ${formatUsd(usd)}`}
        </span>
      )}
    </span>
  );
}

/** A dollar value alone (a market cap, a volume), with cents on hover. */
export function Usd({
  value,
  testId,
  className,
}: {
  value: number | null | undefined;
  testId?: string;
  className?: string;
}) {
  const exact =
    value === null || value === undefined || !Number.isFinite(value)
      ? undefined
      : `$${value.toLocaleString('en-US', { maximumFractionDigits: value < 1 ? 10 : 2 })}`;
  return (
    <span data-testid={testId} title={exact} className={cn('tabular whitespace-nowrap', className)}>
      {formatUsd(value)}
    </span>
  );
}
