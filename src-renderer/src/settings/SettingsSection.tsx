import type { ReactNode } from 'react';

/** One section of Settings: its name and what it is about on the left, its cards on the right (stacked below 1280 px). */
export function SettingsSection({
  id,
  title,
  description,
  children,
}: {
  id: string;
  title: string;
  description: ReactNode;
  children: ReactNode;
}) {
  return (
    <section
      id={id}
      aria-labelledby={`${id}-title`}
      className="grid gap-4 border-t border-line py-6 first:border-t-0 first:pt-0 xl:grid-cols-[15rem_minmax(0,1fr)]"
    >
      <div>
        <h2 id={`${id}-title`} className="text-base font-semibold">
          {title}
        </h2>
        <p className="mt-1 text-muted">{description}</p>
      </div>
      <div className="flex min-w-0 flex-col gap-4">{children}</div>
    </section>
  );
}
