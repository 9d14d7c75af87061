import { formatUnits } from 'viem';
import type { TokenTrade } from '../api/tokens';
import { displayUnits } from '../format';

const WIDTH = 600;
const HEIGHT = 180;
const PAD = 12;

interface Point {
  /** Pair wei per whole token, exact. */
  priceWei: bigint;
  /** The same as a number, for placing the point only. */
  y: number;
  side: 'buy' | 'sell';
  /** The trade's transaction and its place in it: one transaction may hold more than one trade. */
  key: string;
}

/**
 * Each trade's price, oldest first: pair wei per whole token, worked out in bigint (pairWei × 10^decimals / tokenWei)
 * and only then made a number to plot.
 */
export function pricePoints(trades: TokenTrade[], tokenDecimals: number, pairDecimals: number): Point[] {
  const one = 10n ** BigInt(tokenDecimals);
  const points: Point[] = [];
  const seen = new Map<string, number>();
  for (const trade of [...trades].reverse()) {
    const tokenWei = BigInt(trade.tokenWei);
    if (tokenWei === 0n) continue;
    const nth = seen.get(trade.tx) ?? 0;
    seen.set(trade.tx, nth + 1);
    const priceWei = (BigInt(trade.pairWei) * one) / tokenWei;
    const y = Number(formatUnits(priceWei, pairDecimals));
    points.push({ priceWei, y, side: trade.side, key: `${trade.tx}-${nth}` });
  }
  return points;
}

/** The price of each trade, oldest left, as an SVG line with buys and sells marked. */
export function PriceChart({
  trades,
  tokenDecimals,
  pair,
}: {
  trades: TokenTrade[];
  tokenDecimals: number;
  pair: { symbol: string; decimals: number };
}) {
  const points = pricePoints(trades, tokenDecimals, pair.decimals);
  if (points.length === 0) {
    return (
      <p className="muted" data-testid="price-chart-empty">
        No trades yet: the chart starts with the first one.
      </p>
    );
  }
  const ys = points.map((point) => point.y);
  const low = Math.min(...ys);
  const high = Math.max(...ys);
  // A flat line (one trade, or all at one price) sits in the middle.
  const span = high - low || Math.abs(high) || 1;
  const bottom = high === low ? low - span / 2 : low;
  const xOf = (i: number) => (points.length === 1 ? WIDTH / 2 : PAD + (i * (WIDTH - 2 * PAD)) / (points.length - 1));
  const yOf = (y: number) => HEIGHT - PAD - ((y - bottom) / span) * (HEIGHT - 2 * PAD);
  const line = points.map((point, i) => `${xOf(i).toFixed(1)},${yOf(point.y).toFixed(1)}`).join(' ');
  const priceText = (wei: bigint) => `${displayUnits(wei, pair.decimals)} ${pair.symbol}`;
  const last = points[points.length - 1] as Point;
  const lowest = points.reduce((a, b) => (b.priceWei < a.priceWei ? b : a));
  const highest = points.reduce((a, b) => (b.priceWei > a.priceWei ? b : a));
  return (
    <figure className="tk-chart" data-testid="price-chart" data-points={points.length}>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={`Price of the last ${points.length} trades`}>
        <polyline className="tk-chart-line" points={line} fill="none" />
        {points.map((point, i) => (
          <circle
            key={point.key}
            className={point.side === 'buy' ? 'tk-chart-buy' : 'tk-chart-sell'}
            cx={xOf(i)}
            cy={yOf(point.y)}
            r={3}
          >
            <title>{`${point.side} at ${priceText(point.priceWei)}`}</title>
          </circle>
        ))}
      </svg>
      <figcaption className="muted">
        Price per token over the last {points.length} trades: latest{' '}
        <span data-testid="price-chart-last">{priceText(last.priceWei)}</span>, high {priceText(highest.priceWei)}, low{' '}
        {priceText(lowest.priceWei)}.
      </figcaption>
    </figure>
  );
}
