import type { HTMLAttributes, ReactNode } from 'react';
import { cn } from './cn';

interface CardProps extends Omit<HTMLAttributes<HTMLElement>, 'title'> {
  title?: ReactNode;
  /** Buttons or links on the title's line, at the right. */
  actions?: ReactNode;
  testId?: string;
  /** No inner padding: for tables that run to the card's edges. */
  flush?: boolean;
}

/** A surface that groups one thing: a titled section of a page. */
export function Card({ title, actions, testId, flush, className, children, ...rest }: CardProps) {
  return (
    <section
      data-testid={testId}
      className={cn('rounded-xl border border-line bg-surface', flush ? 'overflow-hidden' : 'p-4', className)}
      {...rest}
    >
      {(title || actions) && (
        <header className={cn('flex items-center justify-between gap-3', flush ? 'px-4 pt-3.5 pb-3' : 'mb-3')}>
          {title && <h2 className="text-[0.9375rem] font-semibold">{title}</h2>}
          {actions && <div className="flex items-center gap-2">{actions}</div>}
        </header>
      )}
      {children}
    </section>
  );
}
