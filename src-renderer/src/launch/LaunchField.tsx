import { type ReactNode, useId } from 'react';
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
}) {
  const id = useId();
  const invalid = fields.some((field) => problems[field] && !problems[field]?.missing);
  return (
    <div className="launch-field">
      <label className="launch-label" htmlFor={id}>
        {label}
      </label>
      {multiline ? (
        <textarea
          id={id}
          value={value}
          placeholder={placeholder}
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={invalid}
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
          data-testid={testId}
        />
      )}
      {after}
      <FieldError fields={fields} problems={problems} testId={`${testId}-error`} />
    </div>
  );
}
