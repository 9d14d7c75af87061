import { type ReactNode, useId } from 'react';
import { cn } from './cn';

/**
 * A labelled on/off switch (role switch), as Settings shows its choices: the label and what it does on the left, the
 * switch on the right, tied to both for clicks and screen readers.
 */
export function Switch({
  label,
  description,
  on,
  busy,
  testId,
  onToggle,
}: {
  label: ReactNode;
  description: ReactNode;
  on: boolean;
  busy?: boolean;
  testId?: string;
  onToggle(): void;
}) {
  const id = useId();
  return (
    <div className="flex items-start justify-between gap-4">
      <div className="min-w-0">
        <label htmlFor={`${id}-switch`} className="font-medium">
          {label}
        </label>
        <p id={`${id}-what`} className="mt-1 text-sm text-muted">
          {description}
        </p>
      </div>
      <button
        id={`${id}-switch`}
        type="button"
        role="switch"
        aria-checked={on}
        aria-describedby={`${id}-what`}
        disabled={busy}
        onClick={onToggle}
        data-testid={testId}
        className={cn(
          'relative mt-0.5 inline-flex h-6 w-11 shrink-0 cursor-pointer items-center rounded-full border transition-colors duration-150 disabled:cursor-wait disabled:opacity-60',
          on ? 'border-transparent bg-primary' : 'border-line-strong bg-raised',
        )}
      >
        <span
          aria-hidden="true"
          className={cn(
            'inline-block size-4.5 rounded-full shadow-sm transition-transform duration-150',
            on ? 'translate-x-5.5 bg-primary-fg' : 'translate-x-0.5 bg-muted',
          )}
        />
      </button>
    </div>
  );
}
