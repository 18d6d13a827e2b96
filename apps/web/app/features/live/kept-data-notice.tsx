/**
 * Says, politely, that the page shows what it had because its last update failed, and that it is
 * trying again (kept-page-data.ts): the people in a call know why the page has not moved on.
 */
export function KeptDataNotice({ message }: { message: string }) {
  return (
    <p
      role="status"
      className="screen-only rounded-md border-primary border-l-4 bg-surface-muted px-4 py-3 text-ink"
      data-testid="kept-data-notice"
    >
      {message}
    </p>
  );
}
