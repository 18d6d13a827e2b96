import type { ReactNode } from "react";

/** The clinician is calling (or the call is under way): an alert with the way into the call. */
export function CallRing({
  message,
  testId,
  children,
}: {
  message: string;
  testId: string;
  children: ReactNode;
}) {
  return (
    <div
      role="alert"
      className="flex flex-col gap-3 rounded-md border-2 border-primary bg-surface-muted p-4"
      data-testid={testId}
    >
      <p className="font-semibold text-ink text-xl">{message}</p>
      <div>{children}</div>
    </div>
  );
}
