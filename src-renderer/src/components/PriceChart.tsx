import {
  type AutoscaleInfo,
  CandlestickSeries,
  ColorType,
  createChart,
  type IChartApi,
  type ISeriesApi,
  LineSeries,
  type UTCTimestamp,
} from 'lightweight-charts';
import { useEffect, useMemo, useRef } from 'react';
import { formatUnits } from 'viem';
import { readerLocale } from '../../../src-shared/format/locale';
import { formatAmount } from '../../../src-shared/format/numbers';
import type { TokenTrade } from '../api/tokens';
import { chartMinMove, chartPriceText, clearOfLastPrice, distinctTickLabels } from './chartPrice';
import { tradePriceWei } from './tokenDayStats';

/** Below this many trades a line of each trade reads better than candles. */
const CANDLES_FROM = 12;
/** Candle widths to choose from, in seconds: about 40 candles over the trades' span. */
const INTERVALS = [60, 300, 900, 3600, 4 * 3600, 86_400];

export interface PricePoint {
  /** Unix seconds of the trade's block. */
  time: number;
  /** Pair per whole token, as a number to plot. */
  price: number;
  /** The same in pair wei, exact. */
  priceWei: bigint;
}

/** Each trade's price, oldest first (the trades come newest first); trades of no tokens are left out. */
export function pricePoints(trades: TokenTrade[], tokenDecimals: number, pairDecimals: number): PricePoint[] {
  const points: PricePoint[] = [];
  for (const trade of [...trades].reverse()) {
    const priceWei = tradePriceWei(trade, tokenDecimals);
    if (priceWei === null) continue;
    points.push({
      time: Math.floor(Date.parse(trade.at) / 1000),
      price: Number(formatUnits(priceWei, pairDecimals)),
      priceWei,
    });
  }
  return points;
}

/**
 * The chart draws times as UTC: shifting each by the reader's offset from UTC shows them in local time (the
 * library's own advice for time zones).
 */
function local(seconds: number): UTCTimestamp {
  return (seconds - new Date(seconds * 1000).getTimezoneOffset() * 60) as UTCTimestamp;
}

/** One point per second (the chart needs times strictly increasing): the last trade of a block stands for it. */
function linePoints(points: PricePoint[]) {
  const out: { time: UTCTimestamp; value: number }[] = [];
  for (const point of points) {
    const time = local(point.time);
    const last = out[out.length - 1];
    if (last && last.time === time) last.value = point.price;
    else out.push({ time, value: point.price });
  }
  return out;
}

/** Candles of a width that gives about 40 over the trades' span; each opens where the one before closed. */
function candles(points: PricePoint[]) {
  const first = points[0]?.time ?? 0;
  const span = (points[points.length - 1]?.time ?? first) - first;
  const interval = INTERVALS.find((seconds) => span / seconds <= 40) ?? (INTERVALS[INTERVALS.length - 1] as number);
  const out: { time: UTCTimestamp; open: number; high: number; low: number; close: number }[] = [];
  let bucket = -1;
  for (const point of points) {
    const start = Math.floor(point.time / interval) * interval;
    const last = out[out.length - 1];
    if (last && start === bucket) {
      last.high = Math.max(last.high, point.price);
      last.low = Math.min(last.low, point.price);
      last.close = point.price;
    } else {
      const open = last ? last.close : point.price;
      out.push({
        time: local(start),
        open,
        high: Math.max(open, point.price),
        low: Math.min(open, point.price),
        close: point.price,
      });
      bucket = start;
    }
  }
  return { data: out, interval };
}

/** The design tokens the chart paints with, read from the page's CSS (light or dark, as the system says). */
function palette() {
  const css = getComputedStyle(document.documentElement);
  const token = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    surface: token('--color-surface', '#ffffff'),
    fg: token('--color-fg', '#0f141a'),
    muted: token('--color-muted', '#58606c'),
    line: token('--color-line', '#e2e5ea'),
    primary: token('--color-primary', '#4f46e5'),
    up: token('--color-up', '#14803c'),
    down: token('--color-down', '#c62828'),
  };
}

function chartOptions() {
  const colors = palette();
  return {
    layout: {
      background: { type: ColorType.Solid, color: colors.surface },
      textColor: colors.muted,
      fontFamily: 'Inter Variable, Inter, system-ui, sans-serif',
      fontSize: 11,
      attributionLogo: false,
    },
    grid: { vertLines: { color: colors.line }, horzLines: { color: colors.line } },
    rightPriceScale: { borderColor: colors.line },
    timeScale: { borderColor: colors.line, timeVisible: true, secondsVisible: false },
    // The chart would take navigator.language, which Intl may refuse (en-US@posix under LANG=C.UTF-8).
    localization: { locale: readerLocale() },
  };
}

/**
 * How near the last price's label a tick label may sit, in pixels: half the label's box (the font and its padding)
 * and half a tick's text, at the chart's 11 px font.
 */
const LAST_LABEL_CLEARANCE = 15;

/**
 * The axis and crosshair prices in the app's number form, with the step the prices shown need; the tick the last
 * price's label would half cover is left out (see clearOfLastPrice).
 */
function priceFormatFor(points: PricePoint[], series: ISeriesApi<'Candlestick'> | ISeriesApi<'Line'>) {
  const lastPrice = points[points.length - 1]?.price;
  return {
    type: 'custom' as const,
    formatter: (price: number) => chartPriceText(price, 6),
    tickmarksFormatter: (prices: number[]) =>
      clearOfLastPrice(
        distinctTickLabels(prices),
        prices.map((price) => series.priceToCoordinate(price)),
        lastPrice === undefined ? null : series.priceToCoordinate(lastPrice),
        LAST_LABEL_CLEARANCE,
      ),
    minMove: chartMinMove(points.map((point) => point.price)),
  };
}

/** A flat price (one trade, or all at one price) gets a range of ±10% around it, not a magnified sliver. */
function autoscaleInfoProvider(original: () => AutoscaleInfo | null): AutoscaleInfo | null {
  const info = original();
  if (!info?.priceRange) return info;
  const { minValue, maxValue } = info.priceRange;
  const middle = (minValue + maxValue) / 2;
  if (maxValue - minValue >= Math.abs(middle) * 0.02) return info;
  return { ...info, priceRange: { minValue: middle * 0.9, maxValue: middle * 1.1 } };
}

function candleColors() {
  const colors = palette();
  return {
    upColor: colors.up,
    downColor: colors.down,
    borderVisible: false,
    wickUpColor: colors.up,
    wickDownColor: colors.down,
  };
}

function lineColors() {
  return { color: palette().primary };
}

/**
 * The token's price over real time from the indexed trades (the launch's first buy included): candles once there
 * are enough trades, a line through each trade before that; axes, crosshair, zoom and scroll as TradingView's
 * lightweight-charts gives them, in the app's colours and light or dark with the system.
 */
export function PriceChart({
  trades,
  tokenDecimals,
  pair,
}: {
  trades: TokenTrade[];
  tokenDecimals: number;
  pair: { symbol: string; decimals: number };
}) {
  const pairDecimals = pair.decimals;
  const points = useMemo(() => pricePoints(trades, tokenDecimals, pairDecimals), [trades, tokenDecimals, pairDecimals]);
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<IChartApi | null>(null);
  const asCandles = points.length >= CANDLES_FROM;

  useEffect(() => {
    if (!container.current) return;
    const made = createChart(container.current, { autoSize: true, ...chartOptions() });
    chart.current = made;
    const scheme = matchMedia('(prefers-color-scheme: dark)');
    const repaint = () => made.applyOptions(chartOptions());
    scheme.addEventListener('change', repaint);
    return () => {
      scheme.removeEventListener('change', repaint);
      made.remove();
      chart.current = null;
    };
  }, []);

  // One series per kind (candles or line): made when the kind changes, repainted with the system's scheme.
  const series = useRef<{ api: ISeriesApi<'Candlestick'> | ISeriesApi<'Line'>; fitted: boolean } | null>(null);
  useEffect(() => {
    const made = chart.current;
    if (!made) return;
    const added = asCandles
      ? made.addSeries(CandlestickSeries, { autoscaleInfoProvider, ...candleColors() })
      : made.addSeries(LineSeries, { autoscaleInfoProvider, lineWidth: 2, pointMarkersVisible: true, ...lineColors() });
    series.current = { api: added, fitted: false };
    const scheme = matchMedia('(prefers-color-scheme: dark)');
    const repaint = () => added.applyOptions(asCandles ? candleColors() : lineColors());
    scheme.addEventListener('change', repaint);
    return () => {
      scheme.removeEventListener('change', repaint);
      series.current = null;
      // On unmount the chart is removed first (its effect was declared first), and its series with it.
      if (chart.current === made) made.removeSeries(added);
    };
  }, [asCandles]);

  // New trades only replace the data: the person's zoom and scroll stay, except for the first fit.
  useEffect(() => {
    const shown = series.current;
    if (!shown || points.length === 0) return;
    shown.api.applyOptions({ priceFormat: priceFormatFor(points, shown.api) });
    if (asCandles) (shown.api as ISeriesApi<'Candlestick'>).setData(candles(points).data);
    else (shown.api as ISeriesApi<'Line'>).setData(linePoints(points));
    if (!shown.fitted) {
      chart.current?.timeScale().fitContent();
      shown.fitted = true;
    }
  }, [points, asCandles]);

  const last = points[points.length - 1];
  return (
    <figure data-testid="price-chart" data-points={points.length} className="m-0">
      {points.length === 0 && (
        <p className="py-16 text-center text-muted" data-testid="price-chart-empty">
          No trades yet: the chart starts with the first one.
        </p>
      )}
      <div
        ref={container}
        role="img"
        aria-label={
          last
            ? `Price of ${points.length} trade${points.length === 1 ? '' : 's'}, latest ${chartPriceText(last.price)} ${pair.symbol}`
            : 'No trades yet'
        }
        className={points.length === 0 ? 'hidden' : 'h-72 w-full'}
      />
      {last && (
        <figcaption className="mt-2 flex flex-wrap justify-between gap-2 text-xs text-muted">
          <span>
            {asCandles
              ? `Candles of ${candleLabel(candles(points).interval)} from the last ${points.length} trades`
              : `Each of the last ${points.length} trade${points.length === 1 ? '' : 's'}`}
            , in {pair.symbol} per token, local time. Scroll or pinch to zoom.
          </span>
          <span>
            Latest{' '}
            <span data-testid="price-chart-last" className="tabular text-fg" title={`${last.priceWei} wei`}>
              {formatAmount(last.priceWei, pair.decimals)} {pair.symbol}
            </span>
          </span>
        </figcaption>
      )}
    </figure>
  );
}

function candleLabel(seconds: number): string {
  if (seconds >= 86_400) return `${seconds / 86_400} day`;
  if (seconds >= 3600) return `${seconds / 3600} h`;
  return `${seconds / 60} min`;
}
