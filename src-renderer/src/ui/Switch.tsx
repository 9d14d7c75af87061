import { cn } from './cn';

/** An on/off switch (role switch), as Settings shows its choices; `describedBy` names the text that explains it. */
export function Switch({
  id,
  on,
  busy,
  describedBy,
  testId,
  onToggle,
}: {
  id: string;
  on: boolean;
  busy?: boolean;
  describedBy?: string;
  testId?: string;
  onToggle(): void;
}) {
  return (
    <button
      id={id}
      type="button"
      role="switch"
      aria-checked={on}
      aria-describedby={describedBy}
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
  );
}
