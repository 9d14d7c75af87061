import type { ReactNode } from 'react';
import { cn } from './cn';

export type Tone = 'neutral' | 'primary' | 'up' | 'down' | 'warn';

const TONES: Record<Tone, string> = {
  neutral: 'bg-raised text-fg',
  primary: 'bg-primary-soft text-link',
  up: 'bg-up-soft text-up',
  down: 'bg-down-soft text-down',
  warn: 'bg-warn-soft text-warn',
};

/** A short label in a pill: a state, a tier, a count. */
export function Badge({
  tone = 'neutral',
  testId,
  title,
  className,
  children,
}: {
  tone?: Tone;
  testId?: string;
  title?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <span
      data-testid={testId}
      title={title}
      className={cn(
        'inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs leading-5 font-semibold whitespace-nowrap',
        TONES[tone],
        className,
      )}
    >
      {children}
    </span>
  );
}
