import { cn } from './cn';

export interface SegmentedOption<T extends string> {
  value: T;
  label: string;
  testId?: string;
}

/** One choice of a few, as a row of toggle buttons: the chosen one is pressed. */
export function Segmented<T extends string>({
  label,
  value,
  options,
  onChange,
  size = 'md',
  className,
}: {
  label: string;
  value: T;
  options: SegmentedOption<T>[];
  onChange(value: T): void;
  size?: 'sm' | 'md';
  className?: string;
}) {
  return (
    <fieldset aria-label={label} className={cn('inline-flex rounded-lg border-0 bg-raised p-0.5', className)}>
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          aria-pressed={option.value === value}
          data-testid={option.testId}
          onClick={() => onChange(option.value)}
          className={cn(
            'cursor-pointer rounded-md font-semibold transition-colors',
            size === 'sm' ? 'px-2 py-0.5 text-xs' : 'px-3 py-1 text-sm',
            option.value === value ? 'bg-surface text-fg shadow-sm' : 'text-muted hover:text-fg',
          )}
        >
          {option.label}
        </button>
      ))}
    </fieldset>
  );
}
