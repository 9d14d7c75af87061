import { type KeyboardEvent, type PointerEvent, useRef, useState } from 'react';
import { CHART, PLOT_HEIGHT, pctAt, shapeGeometry, xOf } from './shapeCurve';
import type { EdgeSide } from './shapeEdits';
import type { ShapeRange } from './shapePresets';
import { type CapScale, scaleLabel } from './shapeScale';

/** One colour per range, the same in both themes (each reads on light and dark surfaces). */
const BAR_FILLS = ['fill-[#6366f1]', 'fill-[#14b8a6]', 'fill-[#f59e0b]', 'fill-[#ef4444]'];
const LABEL = 'fill-muted text-[12px]';

interface Edge {
  index: number;
  side: EdgeSide;
  pct: number;
}

/** The edges a person can drag: each range's start (unless it is the end of the one before) and every end but the top. */
function edgesOf(ranges: readonly ShapeRange[]): Edge[] {
  const edges: Edge[] = [];
  ranges.forEach((range, index) => {
    const shared = index > 0 && ranges[index - 1]?.toPct === range.fromPct;
    if (!shared && Number.isFinite(range.fromPct)) edges.push({ index, side: 'from', pct: range.fromPct });
    if (index < ranges.length - 1 && Number.isFinite(range.toPct)) edges.push({ index, side: 'to', pct: range.toPct });
  });
  return edges;
}

/**
 * The shape drawn: supply per band (y) over the price scale (x, in market caps from the opening cap, or in multiples
 * of the opening price until a cap is typed). With `onMoveEdge` the range edges are handles to drag (or to move with
 * the arrow keys).
 */
export function ShapeChart({
  ranges,
  scale,
  onMoveEdge,
}: {
  ranges: readonly ShapeRange[];
  scale: CapScale | null;
  onMoveEdge?: (index: number, side: EdgeSide, pct: number) => void;
}) {
  const svg = useRef<SVGSVGElement>(null);
  const [dragging, setDragging] = useState<{ index: number; side: EdgeSide } | null>(null);
  const { bars, xTicks, yTicks } = shapeGeometry(ranges, scale);
  const bottom = CHART.top + PLOT_HEIGHT;
  const lastBar = bars.find((bar) => bar.index === ranges.length - 1);

  const pctOfPointer = (event: PointerEvent<SVGSVGElement>): number => {
    const box = svg.current?.getBoundingClientRect();
    if (!box || box.width === 0) return 0;
    return pctAt(((event.clientX - box.left) / box.width) * CHART.width);
  };

  const startDrag = (event: PointerEvent<SVGRectElement>, edge: Edge) => {
    if (!onMoveEdge) return;
    event.preventDefault();
    svg.current?.setPointerCapture(event.pointerId);
    setDragging({ index: edge.index, side: edge.side });
  };

  const keyMove = (event: KeyboardEvent<SVGRectElement>, edge: Edge) => {
    const step =
      event.key === 'ArrowRight' || event.key === 'ArrowUp'
        ? 1
        : event.key === 'ArrowLeft' || event.key === 'ArrowDown'
          ? -1
          : 0;
    if (step === 0 || !onMoveEdge) return;
    event.preventDefault();
    onMoveEdge(edge.index, edge.side, edge.pct + step);
  };

  return (
    <svg
      ref={svg}
      className={`mx-auto my-1 block h-auto w-full max-w-3xl touch-none rounded-lg border border-line bg-canvas/40 select-none ${dragging ? 'cursor-ew-resize' : ''}`}
      viewBox={`0 0 ${CHART.width} ${CHART.height}`}
      role="img"
      aria-label={`Supply per price band, from the opening ${scale ? 'market cap' : 'price'} to about 100 times it`}
      data-testid="launch-shape-chart"
      onPointerMove={(event) => {
        if (dragging && onMoveEdge) onMoveEdge(dragging.index, dragging.side, pctOfPointer(event));
      }}
      onPointerUp={() => setDragging(null)}
      onPointerCancel={() => setDragging(null)}
    >
      <line className="stroke-line-strong" x1={CHART.left} y1={bottom} x2={xOf(100)} y2={bottom} />
      <line className="stroke-line-strong" x1={CHART.left} y1={CHART.top} x2={CHART.left} y2={bottom} />
      {yTicks.map((tick) => (
        <g key={tick.label}>
          <line className="stroke-line" strokeDasharray="3 4" x1={CHART.left} y1={tick.y} x2={xOf(100)} y2={tick.y} />
          <text className={LABEL} x={CHART.left - 6} y={tick.y + 4} textAnchor="end">
            {tick.label}
          </text>
        </g>
      ))}
      <text
        className={LABEL}
        transform={`translate(14 ${CHART.top + PLOT_HEIGHT / 2}) rotate(-90)`}
        textAnchor="middle"
      >
        supply per tenth of the scale
      </text>
      {xTicks.map((tick) => (
        <text
          key={tick.x}
          className={LABEL}
          x={tick.x}
          y={bottom + 16}
          textAnchor="middle"
          data-testid="launch-shape-x-label"
        >
          {tick.label}
        </text>
      ))}
      <text className={LABEL} x={CHART.left + (xOf(100) - CHART.left) / 2} y={CHART.height - 6} textAnchor="middle">
        {scale
          ? `market cap, in ${scale.unit === '$' ? 'dollars' : scale.unit}`
          : 'price, in multiples of the opening price'}
      </text>
      {bars.map((bar) => (
        <rect
          key={bar.index}
          className={`stroke-surface opacity-90 ${BAR_FILLS[bar.index % BAR_FILLS.length]}`}
          x={bar.x}
          y={bar.y}
          width={bar.width}
          height={bar.height}
          data-testid="launch-shape-bar"
          data-index={bar.index}
          data-from={ranges[bar.index]?.fromPct}
          data-to={ranges[bar.index]?.toPct}
          data-bps={ranges[bar.index]?.bps}
        >
          <title>{`${bar.perBandPct.toFixed(1)}% of the supply per tenth of the scale`}</title>
        </rect>
      ))}
      {lastBar && (
        <path
          className={`opacity-60 ${BAR_FILLS[lastBar.index % BAR_FILLS.length]}`}
          d={`M ${xOf(100) + 2} ${lastBar.y} l 10 ${lastBar.height / 2} l -10 ${lastBar.height / 2} z`}
        >
          <title>The last range runs on to the highest price: no shape caps the price.</title>
        </path>
      )}
      {onMoveEdge &&
        edgesOf(ranges).map((edge) => (
          <g key={`${edge.index}-${edge.side}`}>
            <line
              className="stroke-fg"
              strokeWidth={2}
              strokeDasharray="4 3"
              x1={xOf(edge.pct)}
              y1={CHART.top}
              x2={xOf(edge.pct)}
              y2={bottom}
            />
            <rect
              x={xOf(edge.pct) - 7}
              y={CHART.top}
              width={14}
              height={PLOT_HEIGHT}
              tabIndex={0}
              className="cursor-ew-resize fill-transparent outline-none focus-visible:fill-primary/20"
              role="slider"
              aria-label={`Range ${edge.index + 1} ${edge.side === 'from' ? 'start' : 'end'}, per cent of the scale`}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={edge.pct}
              aria-valuetext={`${edge.pct}% of the scale, ${scaleLabel(edge.pct, scale)}`}
              data-testid={`launch-shape-edge-${edge.index}-${edge.side}`}
              onPointerDown={(event) => startDrag(event, edge)}
              onKeyDown={(event) => keyMove(event, edge)}
            />
          </g>
        ))}
    </svg>
  );
}
