import { Plus, X } from 'lucide-react';
import { Button } from '../ui/Button';
import { cn } from '../ui/cn';
import { Segmented } from '../ui/Segmented';
import { FieldError } from './FieldError';
import type { LaunchProblem } from './launchBody';
import { type ShapeMode, useLaunchForm } from './launchForm';
import { ShapeChart } from './ShapeChart';
import { type DraftRange, draftOf, MAX_RANGES, readDraftShape } from './shapeDraft';
import { addRange, moveEdge, removeRange } from './shapeEdits';
import { PRESET_NOTES, SHAPE_PRESETS, type ShapeRange } from './shapePresets';
import { type CapScale, rangeCapsText, SHAPE_SPAN_TICKS, scaleLabel } from './shapeScale';

const MODES: { value: ShapeMode; label: string; testId: string }[] = [
  { value: 'flat', label: 'Flat', testId: 'launch-shape-flat' },
  { value: 'stepped', label: 'Stepped', testId: 'launch-shape-stepped' },
  { value: 'steep', label: 'Steep', testId: 'launch-shape-steep' },
  { value: 'custom', label: 'Custom', testId: 'launch-shape-custom' },
];

const RANGE_INPUT = 'w-20 py-1 text-right tabular';

/** One custom range's inputs: from, to (the last one fixed at the top) and its share, with the caps it spans. */
function RangeRow({
  range,
  index,
  count,
  scale,
  problems,
  onChange,
  onRemove,
}: {
  range: DraftRange;
  index: number;
  count: number;
  scale: CapScale | null;
  problems: { field: string | null; message: string }[];
  onChange: (range: DraftRange) => void;
  onRemove: () => void;
}) {
  const last = index === count - 1;
  const problemOf = (field: string) => problems.find((p) => p.field === field);
  const input = (field: 'fromPct' | 'toPct' | 'bps', label: string) => {
    const problem = problemOf(field);
    return (
      <td>
        <input
          className={cn(RANGE_INPUT, problem && 'border-down', field === 'toPct' && last && 'text-muted')}
          inputMode="decimal"
          aria-label={`Range ${index + 1} ${label}`}
          aria-invalid={problem !== undefined}
          title={problem?.message}
          value={field === 'toPct' && last ? '100' : range[field]}
          readOnly={field === 'toPct' && last}
          onChange={(event) => onChange({ ...range, [field]: event.target.value })}
          data-testid={`launch-range-${index}-${field}`}
        />
      </td>
    );
  };
  const numbers = { fromPct: Number(range.fromPct), toPct: last ? 100 : Number(range.toPct), bps: 0 };
  return (
    <>
      <tr data-testid={`launch-range-${index}`}>
        <th scope="row" className="text-muted">
          {index + 1}
        </th>
        <td className="font-medium whitespace-nowrap tabular" data-testid={`launch-range-${index}-prices`}>
          {rangeCapsText(numbers, last, scale)}
        </td>
        {input('fromPct', 'from, per cent of the scale')}
        {input('toPct', 'to, per cent of the scale')}
        {input('bps', 'share, bps')}
        <td className="text-right">
          {count > 1 && (
            <Button
              variant="ghost"
              size="sm"
              aria-label={`Remove range ${index + 1}`}
              icon={<X size={14} aria-hidden="true" />}
              onClick={onRemove}
              testId={`launch-range-remove-${index}`}
            />
          )}
        </td>
      </tr>
      {problems.length > 0 && (
        <tr>
          <td />
          <td colSpan={5} className="!pt-0 text-xs text-down" data-testid={`launch-range-${index}-problem`}>
            {problems.map((p) => p.message).join(' ')}
          </td>
        </tr>
      )}
    </>
  );
}

/** Where each range sits in ticks above the opening tick (and on the pool, once a build named the opening tick). */
function TickDetails({ ranges, openingTick }: { ranges: readonly ShapeRange[]; openingTick: number | null }) {
  const ticks = (pct: number) => Math.round((pct / 100) * SHAPE_SPAN_TICKS);
  return (
    <details className="mt-3 text-sm" data-testid="launch-shape-ticks">
      <summary className="cursor-pointer text-muted">In ticks</summary>
      <p className="mt-1 text-xs text-muted">
        The scale is {SHAPE_SPAN_TICKS.toLocaleString('en-US')} ticks above the opening tick; each tick is a 0.01% step
        in price.
        {openingTick !== null && ` The last build opens at tick ${openingTick.toLocaleString('en-US')}.`}
      </p>
      <table className="mt-1">
        <thead>
          <tr>
            <th scope="col">Range</th>
            <th scope="col" className="num">
              From tick
            </th>
            <th scope="col" className="num">
              To tick
            </th>
            <th scope="col" className="num">
              Share
            </th>
          </tr>
        </thead>
        <tbody>
          {ranges.map((range, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a range is its position
            <tr key={index}>
              <td>{index + 1}</td>
              <td className="num">
                +{Number.isFinite(range.fromPct) ? ticks(range.fromPct).toLocaleString('en-US') : '—'}
              </td>
              <td className="num">
                {index === ranges.length - 1
                  ? 'top'
                  : `+${Number.isFinite(range.toPct) ? ticks(range.toPct).toLocaleString('en-US') : '—'}`}
              </td>
              <td className="num">{Number.isFinite(range.bps) ? `${range.bps / 100}%` : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

/**
 * How the supply is laid across prices, read in market caps: a preset as the service defines it, or 1 to 4 custom
 * ranges edited by their inputs or by dragging their edges on the chart. The shares must add to 10,000 bps before the
 * launch can be built. `scale` is the opening cap (in dollars where the pair has a price), null until one is typed.
 */
export function ShapeEditor({
  problems,
  scale,
  openingTick,
}: {
  problems: Record<string, LaunchProblem>;
  scale: CapScale | null;
  openingTick: number | null;
}) {
  const mode = useLaunchForm((s) => s.draft.shapeMode);
  const draftRanges = useLaunchForm((s) => s.draft.ranges);
  const edit = useLaunchForm((s) => s.edit);
  const reading = readDraftShape(draftRanges);
  const ranges = mode === 'custom' ? reading.ranges : SHAPE_PRESETS[mode];

  const pick = (next: ShapeMode) => {
    // Custom starts from the shape on show, so a preset can be adjusted rather than redrawn.
    if (next === 'custom' && mode !== 'custom') edit({ shapeMode: next, ranges: draftOf(SHAPE_PRESETS[mode]) });
    else edit({ shapeMode: next });
  };
  const setRanges = (next: DraftRange[]) => edit({ ranges: next });

  return (
    <div className="flex flex-col gap-3" data-testid="launch-shape" data-mode={mode}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Segmented label="Shape" value={mode} options={MODES} onChange={pick} />
        <p className="text-xs text-muted">
          {scale
            ? `From ${scaleLabel(0, scale)} at the opening to ${scaleLabel(100, scale)} at the top of the scale.`
            : 'Type the opening market cap to read the shape in caps.'}
        </p>
      </div>
      <p className="text-sm text-muted">
        {mode === 'custom'
          ? 'Up to four ranges, placed in per cent of the scale (the opening cap to about 100 times it); the last runs on with no cap.'
          : PRESET_NOTES[mode]}
      </p>
      <ShapeChart
        ranges={ranges}
        scale={scale}
        {...(mode === 'custom'
          ? {
              onMoveEdge: (index: number, side: 'from' | 'to', pct: number) =>
                setRanges(moveEdge(draftRanges, index, side, pct)),
            }
          : {})}
      />
      {mode !== 'custom' && (
        <ul className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm" data-testid="launch-shape-caps">
          {ranges.map((range, index) => (
            <li key={`${range.fromPct}-${range.toPct}`} className="flex justify-between gap-2">
              <span className="tabular">{rangeCapsText(range, index === ranges.length - 1, scale)}</span>
              <span className="text-muted tabular">{range.bps / 100}%</span>
            </li>
          ))}
        </ul>
      )}
      {mode === 'custom' && (
        <>
          <table className="text-sm">
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Market cap</th>
                <th scope="col" className="num">
                  From %
                </th>
                <th scope="col" className="num">
                  To %
                </th>
                <th scope="col" className="num">
                  Share (bps)
                </th>
                <th scope="col">
                  <span className="sr-only">Remove</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {draftRanges.map((range, index) => (
                <RangeRow
                  // biome-ignore lint/suspicious/noArrayIndexKey: ranges have no identity of their own; a row is its position
                  key={index}
                  range={range}
                  index={index}
                  count={draftRanges.length}
                  scale={scale}
                  problems={reading.problems.filter((p) => p.index === index)}
                  onChange={(next) => setRanges(draftRanges.map((r, i) => (i === index ? next : r)))}
                  onRemove={() => setRanges(removeRange(draftRanges, index))}
                />
              ))}
            </tbody>
          </table>
          <div className="flex items-center gap-3">
            <Button
              size="sm"
              icon={<Plus size={14} aria-hidden="true" />}
              disabled={draftRanges.length >= MAX_RANGES}
              onClick={() => setRanges(addRange(draftRanges))}
              testId="launch-range-add"
            >
              Add a range
            </Button>
            <span
              className={cn('text-sm', reading.remainderBps === 0 ? 'text-muted' : 'text-down')}
              data-testid="launch-shape-remainder"
              data-value={reading.remainderBps}
            >
              {reading.remainderBps === 0
                ? 'The shares add to 10,000 bps.'
                : reading.remainderBps > 0
                  ? `${reading.remainderBps.toLocaleString('en-US')} bps left to give out.`
                  : `${(-reading.remainderBps).toLocaleString('en-US')} bps too many.`}
            </span>
          </div>
        </>
      )}
      <TickDetails ranges={ranges} openingTick={openingTick} />
      <FieldError fields={['shape']} problems={problems} testId="launch-shape-error" />
    </div>
  );
}
