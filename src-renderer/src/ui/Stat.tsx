import type { ReactNode } from 'react';
import { cn } from './cn';

/** A figure with its label above: price, market cap, volume. */
export function Stat({
  label,
  children,
  sub,
  className,
}: {
  label: ReactNode;
  children: ReactNode;
  sub?: ReactNode;
  className?: string;
}) {
  return (
    <div className={cn('flex min-w-0 flex-col gap-0.5', className)}>
      <span className="text-2xs font-semibold tracking-wide text-muted uppercase">{label}</span>
      <span className="tabular text-base font-semibold">{children}</span>
      {sub && <span className="tabular text-xs text-muted">{sub}</span>}
    </div>
  );
}
