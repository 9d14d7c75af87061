import { type KeyboardEvent, type PointerEvent, useRef, useState } from 'react';
import { CHART, PLOT_HEIGHT, pctAt, shapeGeometry, xOf } from './shapeCurve';
import type { EdgeSide } from './shapeEdits';
import type { ShapeRange } from './shapePresets';

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
 * The shape drawn: supply per band (y) over the price scale (x, in multiples of the opening price). With `onMoveEdge`
 * the range edges are handles to drag (or to move with the arrow keys).
 */
export function ShapeChart({
  ranges,
  onMoveEdge,
}: {
  ranges: readonly ShapeRange[];
  onMoveEdge?: (index: number, side: EdgeSide, pct: number) => void;
}) {
  const svg = useRef<SVGSVGElement>(null);
  const [dragging, setDragging] = useState<{ index: number; side: EdgeSide } | null>(null);
  const { bars, xTicks, yTicks } = shapeGeometry(ranges);
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
      className={`launch-shape-chart${dragging ? ' launch-shape-dragging' : ''}`}
      viewBox={`0 0 ${CHART.width} ${CHART.height}`}
      role="img"
      aria-label="Supply per price band, from the opening price to about 100 times it"
      data-testid="launch-shape-chart"
      onPointerMove={(event) => {
        if (dragging && onMoveEdge) onMoveEdge(dragging.index, dragging.side, pctOfPointer(event));
      }}
      onPointerUp={() => setDragging(null)}
      onPointerCancel={() => setDragging(null)}
    >
      <line className="launch-shape-axis" x1={CHART.left} y1={bottom} x2={xOf(100)} y2={bottom} />
      <line className="launch-shape-axis" x1={CHART.left} y1={CHART.top} x2={CHART.left} y2={bottom} />
      {yTicks.map((tick) => (
        <g key={tick.label}>
          <line className="launch-shape-grid" x1={CHART.left} y1={tick.y} x2={xOf(100)} y2={tick.y} />
          <text className="launch-shape-label" x={CHART.left - 6} y={tick.y + 4} textAnchor="end">
            {tick.label}
          </text>
        </g>
      ))}
      <text
        className="launch-shape-label"
        transform={`translate(14 ${CHART.top + PLOT_HEIGHT / 2}) rotate(-90)`}
        textAnchor="middle"
      >
        supply per tenth of the scale
      </text>
      {xTicks.map((tick) => (
        <text
          key={tick.x}
          className="launch-shape-label"
          x={tick.x}
          y={bottom + 16}
          textAnchor="middle"
          data-testid="launch-shape-x-label"
        >
          {tick.label}
        </text>
      ))}
      <text
        className="launch-shape-label"
        x={CHART.left + (xOf(100) - CHART.left) / 2}
        y={CHART.height - 6}
        textAnchor="middle"
      >
        price, in multiples of the opening price
      </text>
      {bars.map((bar) => (
        <rect
          key={bar.index}
          className={`launch-shape-bar launch-shape-bar-${bar.index}`}
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
          className={`launch-shape-onward launch-shape-bar-${lastBar.index}`}
          d={`M ${xOf(100) + 2} ${lastBar.y} l 10 ${lastBar.height / 2} l -10 ${lastBar.height / 2} z`}
        >
          <title>The last range runs on to the highest price: no shape caps the price.</title>
        </path>
      )}
      {onMoveEdge &&
        edgesOf(ranges).map((edge) => (
          <g key={`${edge.index}-${edge.side}`} className="launch-shape-edge">
            <line x1={xOf(edge.pct)} y1={CHART.top} x2={xOf(edge.pct)} y2={bottom} />
            <rect
              x={xOf(edge.pct) - 7}
              y={CHART.top}
              width={14}
              height={PLOT_HEIGHT}
              tabIndex={0}
              role="slider"
              aria-label={`Range ${edge.index + 1} ${edge.side === 'from' ? 'start' : 'end'}, per cent of the scale`}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={edge.pct}
              data-testid={`launch-shape-edge-${edge.index}-${edge.side}`}
              onPointerDown={(event) => startDrag(event, edge)}
              onKeyDown={(event) => keyMove(event, edge)}
            />
          </g>
        ))}
    </svg>
  );
}
