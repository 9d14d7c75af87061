import type { ReactNode } from 'react';
import { useRouter } from './routes';

/** An in-app link: a real href (copyable, middle-click works) that navigates without reloading. */
export function Link({
  to,
  children,
  className,
  testId,
  title,
  current,
}: {
  to: string;
  children: ReactNode;
  className?: string;
  testId?: string;
  title?: string;
  /** Marks the link of the page being shown (`aria-current="page"`). */
  current?: boolean;
}) {
  const navigate = useRouter((s) => s.navigate);
  return (
    <a
      href={to}
      className={className}
      data-testid={testId}
      title={title}
      aria-current={current ? 'page' : undefined}
      onClick={(event) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        navigate(to);
      }}
    >
      {children}
    </a>
  );
}
