import { cn } from '../ui/cn';

/** A price change as "+12.3%" in the up colour, "−4.5%" in the down colour, or a dash without one. */
export function ChangeText({ pct, className }: { pct: number | null; className?: string }) {
  if (pct === null || !Number.isFinite(pct)) return <span className={cn('text-muted', className)}>—</span>;
  const digits = Math.abs(pct) >= 100 ? 0 : 1;
  const text = `${pct > 0 ? '+' : pct < 0 ? '−' : ''}${Math.abs(pct).toLocaleString('en-US', {
    maximumFractionDigits: digits,
    minimumFractionDigits: digits,
  })}%`;
  return (
    <span
      className={cn('tabular font-semibold', pct > 0 ? 'text-up' : pct < 0 ? 'text-down' : 'text-muted', className)}
    >
      {text}
    </span>
  );
}
