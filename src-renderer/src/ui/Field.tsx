import type { ReactNode } from 'react';
import { cn } from './cn';

/**
 * A labelled control: the label above, a hint or the error below. `htmlFor` ties the label to the control so
 * screen readers and clicks reach it.
 */
export function Field({
  label,
  htmlFor,
  hint,
  error,
  errorTestId,
  aside,
  className,
  children,
}: {
  label: ReactNode;
  htmlFor?: string;
  hint?: ReactNode;
  error?: ReactNode;
  errorTestId?: string;
  /** Something at the label's right: a balance, a unit switch. */
  aside?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <div className="flex items-baseline justify-between gap-2">
        <label htmlFor={htmlFor} className="text-[0.8125rem] font-medium">
          {label}
        </label>
        {aside && <div className="text-xs text-muted">{aside}</div>}
      </div>
      {children}
      {error ? (
        <p className="text-xs text-down" role="alert" data-testid={errorTestId}>
          {error}
        </p>
      ) : (
        hint && <p className="text-xs text-muted">{hint}</p>
      )}
    </div>
  );
}
