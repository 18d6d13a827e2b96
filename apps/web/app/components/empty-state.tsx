import type { ReactNode } from "react";

/**
 * What a list shows while it has nothing in it: a title, a sentence on what the list is for (so a
 * new patient learns what will appear here), and the next step as a link or button. Never a bare
 * "nothing here".
 */
export function EmptyState({
  title,
  children,
  action,
  headingLevel = 3,
  testId,
}: {
  title: string;
  /** What the page or list is for, and how something comes to appear in it. */
  children: ReactNode;
  /** The next step: one or more links or buttons. */
  action?: ReactNode;
  /** The heading's level, one below the section the list belongs to. */
  headingLevel?: 2 | 3;
  testId?: string;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <div className="rounded-lg border border-border bg-surface-muted p-5" data-testid={testId}>
      <Heading className="font-bold text-ink text-lg">{title}</Heading>
      <div className="mt-2 max-w-prose text-ink">{children}</div>
      {action ? <div className="mt-4 flex flex-wrap items-center gap-4">{action}</div> : null}
    </div>
  );
}
