import { shareOfBalance } from '../../../src-shared/format/balance';
import type { Balances, Side, TokenInfo } from '../api/tokens';
import { Button } from '../ui/Button';
import type { TradeEdit } from './useTradePanel';

/** Quick amounts for a buy: BNB, or dollars when the pair is a dollar stablecoin. */
const BNB_PRESETS = ['0.1', '0.5', '1'];
const USD_PRESETS = ['10', '50', '100'];
/** Shares of the wallet's tokens for a sell, in per cent. */
const SELL_SHARES = [25, 50, 100];

/** One click for a usual amount: a few amounts of the pair to buy with, or a share of the tokens held to sell. */
export function TradeQuickAmounts({
  token,
  side,
  balances,
  pairUsd,
  onEdit,
}: {
  token: TokenInfo;
  side: Side;
  balances: Balances | null;
  pairUsd: number | null;
  onEdit(next: TradeEdit): void;
}) {
  const buyPresets = token.quoteIsBnb ? BNB_PRESETS : USD_PRESETS;
  // A dollar stablecoin's presets read as dollars.
  const dollarPair = !token.quoteIsBnb && pairUsd === 1;
  return (
    <div className="flex flex-wrap gap-1.5">
      {side === 'buy'
        ? buyPresets.map((preset) => (
            <Button
              key={preset}
              size="sm"
              variant="secondary"
              testId={`trade-preset-${preset}`}
              onClick={() => onEdit({ exact: 'in', amount: preset })}
            >
              {dollarPair ? `$${preset}` : `${preset} ${token.quote.symbol}`}
            </Button>
          ))
        : SELL_SHARES.map((share) => (
            <Button
              key={share}
              size="sm"
              variant="secondary"
              testId={`trade-share-${share}`}
              disabled={!balances || BigInt(balances.token.wei) === 0n}
              onClick={() => {
                if (!balances) return;
                // At the balance's own precision, rounded down: never more than is held, never 18 noise digits.
                const { text } = shareOfBalance(BigInt(balances.token.wei), balances.token.decimals, share);
                onEdit({ exact: 'in', amount: text });
              }}
            >
              {share === 100 ? 'Max' : `${share}%`}
            </Button>
          ))}
    </div>
  );
}
