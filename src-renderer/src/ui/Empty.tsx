import type { ReactNode } from 'react';

/** What a list says while it has nothing, and what to do about it. */
export function Empty({ title, children, testId }: { title: string; children?: ReactNode; testId?: string }) {
  return (
    <div data-testid={testId} className="flex flex-col items-center gap-1 px-6 py-10 text-center">
      <p className="font-semibold">{title}</p>
      {children && <div className="max-w-md text-sm text-muted">{children}</div>}
    </div>
  );
}
