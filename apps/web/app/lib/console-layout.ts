/**
 * The care console's layout, apart from the page table (lib/pages.ts): the root reads it on every
 * page, and the page table names every page's title, which would then ship with each page (ADR 042).
 */
export const CONSOLE_LAYOUT = "routes/layouts/console.tsx";

/** The console layout's route id (its file without the extension, as React Router names routes). */
export const CONSOLE_LAYOUT_ID = CONSOLE_LAYOUT.replace(/\.tsx$/, "");

/** The operations console's layout (ADR 065), and its route id. */
export const OPERATIONS_LAYOUT = "routes/layouts/operations.tsx";
export const OPERATIONS_LAYOUT_ID = OPERATIONS_LAYOUT.replace(/\.tsx$/, "");

/**
 * Whether a page (the ids of its matched routes) gets the patients' support widget: every page but
 * the care console's and the operations console's, where it would float over the staff's work and
 * serve nobody (its messages are tagged with the patients' segment, SUPPORT_SEGMENT).
 */
export function showsSupportWidget(routeIds: readonly string[]): boolean {
  return !routeIds.includes(CONSOLE_LAYOUT_ID) && !routeIds.includes(OPERATIONS_LAYOUT_ID);
}
