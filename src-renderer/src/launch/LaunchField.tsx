import { type ReactNode, useId } from 'react';
import { cn } from '../ui/cn';
import { FieldError } from './FieldError';
import type { LaunchProblem } from './launchBody';

/** One labelled text input of the wizard with its problem beside it. */
export function LaunchField({
  label,
  value,
  onChange,
  testId,
  fields,
  problems,
  placeholder,
  inputMode,
  multiline,
  after,
  hint,
  aside,
  className,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  testId: string;
  /** The body fields whose problems belong here. */
  fields: readonly string[];
  problems: Record<string, LaunchProblem>;
  placeholder?: string;
  inputMode?: 'decimal' | 'numeric' | 'text' | 'url';
  multiline?: boolean;
  /** Shown after the input: a unit, a toggle. */
  after?: ReactNode;
  /** A quiet line under the input: what the value means, a conversion. */
  hint?: ReactNode;
  /** Something at the label's right: a unit switch. */
  aside?: ReactNode;
  className?: string;
}) {
  const id = useId();
  const invalid = fields.some((field) => problems[field] && !problems[field]?.missing);
  return (
    <div className={cn('flex min-w-0 flex-col gap-1.5', className)}>
      <div className="flex items-center justify-between gap-2">
        <label className="text-[0.8125rem] font-medium" htmlFor={id}>
          {label}
        </label>
        {aside}
      </div>
      {multiline ? (
        <textarea
          id={id}
          value={value}
          placeholder={placeholder}
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={invalid}
          className={cn('w-full', invalid && 'border-down')}
          data-testid={testId}
          rows={3}
        />
      ) : (
        <input
          id={id}
          value={value}
          placeholder={placeholder}
          inputMode={inputMode}
          autoComplete="off"
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={invalid}
          className={cn('w-full', invalid && 'border-down')}
          data-testid={testId}
        />
      )}
      {after}
      {hint && <p className="text-xs text-muted">{hint}</p>}
      <FieldError fields={fields} problems={problems} testId={`${testId}-error`} />
    </div>
  );
}
