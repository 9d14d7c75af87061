import { FieldError } from './FieldError';
import type { LaunchProblem } from './launchBody';
import { type ShapeMode, useLaunchForm } from './launchForm';
import { ShapeChart } from './ShapeChart';
import { type DraftRange, draftOf, MAX_RANGES, readDraftShape } from './shapeDraft';
import { addRange, moveEdge, removeRange } from './shapeEdits';
import { PRESET_NOTES, SHAPE_PRESETS } from './shapePresets';
import { multipleLabel } from './shapeScale';

const MODES: { value: ShapeMode; label: string }[] = [
  { value: 'flat', label: 'Flat' },
  { value: 'stepped', label: 'Stepped' },
  { value: 'steep', label: 'Steep' },
  { value: 'custom', label: 'Custom' },
];

/** One custom range's inputs: from, to (the last one fixed at the top) and its share. */
function RangeRow({
  range,
  index,
  count,
  problems,
  onChange,
  onRemove,
}: {
  range: DraftRange;
  index: number;
  count: number;
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
          className="launch-range-input"
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
  const fromPct = Number(range.fromPct);
  const toPct = last ? 100 : Number(range.toPct);
  return (
    <tr data-testid={`launch-range-${index}`}>
      <th scope="row">{index + 1}</th>
      {input('fromPct', 'from, per cent')}
      {input('toPct', 'to, per cent')}
      {input('bps', 'share, bps')}
      <td className="muted" data-testid={`launch-range-${index}-prices`}>
        {Number.isFinite(fromPct) && Number.isFinite(toPct)
          ? `${multipleLabel(fromPct)} – ${last ? 'top' : multipleLabel(toPct)}`
          : '—'}
      </td>
      <td>
        {count > 1 && (
          <button type="button" onClick={onRemove} data-testid={`launch-range-remove-${index}`}>
            Remove
          </button>
        )}
      </td>
      <td className="launch-field-error" data-testid={`launch-range-${index}-problem`}>
        {problems.map((p) => p.message).join(' ')}
      </td>
    </tr>
  );
}

/**
 * How the supply is laid across prices: a preset as the service defines it, or 1 to 4 custom ranges edited by their
 * inputs or by dragging their edges on the chart. The shares must add to 10,000 bps before the launch can be built.
 */
export function ShapeEditor({ problems }: { problems: Record<string, LaunchProblem> }) {
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
    <fieldset className="launch-section" data-testid="launch-shape" data-mode={mode}>
      <legend>Liquidity shape</legend>
      <fieldset className="segmented launch-toggle">
        <legend className="launch-visually-hidden">Shape</legend>
        {MODES.map((option) => (
          <button
            key={option.value}
            type="button"
            aria-pressed={option.value === mode}
            className={option.value === mode ? 'segmented-on' : undefined}
            onClick={() => pick(option.value)}
            data-testid={`launch-shape-${option.value}`}
          >
            {option.label}
          </button>
        ))}
      </fieldset>
      <p className="muted">
        {mode === 'custom'
          ? 'Up to four ranges on a scale of 0 to 100% (46,000 ticks, about 100 times the opening price); the last runs on to the top.'
          : PRESET_NOTES[mode]}
      </p>
      <ShapeChart
        ranges={ranges}
        {...(mode === 'custom'
          ? {
              onMoveEdge: (index: number, side: 'from' | 'to', pct: number) =>
                setRanges(moveEdge(draftRanges, index, side, pct)),
            }
          : {})}
      />
      {mode === 'custom' && (
        <>
          <table className="launch-ranges">
            <thead>
              <tr>
                <th scope="col">Range</th>
                <th scope="col">From %</th>
                <th scope="col">To %</th>
                <th scope="col">Share (bps)</th>
                <th scope="col">Price</th>
                <th scope="col" />
                <th scope="col" />
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
                  problems={reading.problems.filter((p) => p.index === index)}
                  onChange={(next) => setRanges(draftRanges.map((r, i) => (i === index ? next : r)))}
                  onRemove={() => setRanges(removeRange(draftRanges, index))}
                />
              ))}
            </tbody>
          </table>
          <p>
            <button
              type="button"
              disabled={draftRanges.length >= MAX_RANGES}
              onClick={() => setRanges(addRange(draftRanges))}
              data-testid="launch-range-add"
            >
              Add a range
            </button>{' '}
            <span
              className={reading.remainderBps === 0 ? 'muted' : 'launch-field-error'}
              data-testid="launch-shape-remainder"
              data-value={reading.remainderBps}
            >
              {reading.remainderBps === 0
                ? 'The shares add to 10,000 bps.'
                : reading.remainderBps > 0
                  ? `${reading.remainderBps} bps left to give out.`
                  : `${-reading.remainderBps} bps too many.`}
            </span>
          </p>
        </>
      )}
      <FieldError fields={['shape']} problems={problems} testId="launch-shape-error" />
    </fieldset>
  );
}
