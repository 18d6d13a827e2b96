import { index, layout, type RouteConfig, type RouteConfigEntry, route } from "@react-router/dev/routes";
import { MAIN_LAYOUT, PAGES } from "./lib/pages.ts";

/**
 * Every route of the site. The pages come from the page table (lib/pages.ts), which declares each
 * page's file, layout, access rule, SEO and name in one entry; the layouts are in the order of their
 * first page there. The routes that are not pages (files, JSON, downloads, the catch-all) are listed
 * here. Route files mirror the URL under routes/.
 */
function pagesByLayout(): RouteConfigEntry[] {
  const layouts = new Map<string, RouteConfigEntry[]>();
  for (const [path, page] of Object.entries(PAGES)) {
    const file = "layout" in page ? page.layout : MAIN_LAYOUT;
    const children = layouts.get(file) ?? [];
    children.push(path === "/" ? index(page.file) : route(path.slice(1), page.file));
    layouts.set(file, children);
  }
  return [...layouts].map(([file, children]) => layout(file, children));
}

export default [
  ...pagesByLayout(),
  // Resource routes for search engines (lib/seo.ts): files, not pages, so outside the layouts.
  route("sitemap.xml", "routes/sitemap-xml.ts"),
  route("robots.txt", "routes/robots-txt.ts"),
  // Resource routes of the site-wide forms and downloads (ADR 017): no page, no layout. Each checks
  // its own access (the export requires the logged-in patient).
  route("captcha/challenge", "routes/captcha-challenge.ts"),
  route("newsletter", "routes/newsletter.ts"),
  route("support-message", "routes/support-message.ts"),
  route("cookie-consent", "routes/cookie-consent.ts"),
  route("my-profile/health-data/export", "routes/health-data-export.ts"),
  // A patient's uploaded document: bytes, not a page.
  route("my-profile/medical-records/documents/:id", "routes/my-profile/medical-record-document.ts"),
  // A visit's chat for the VisitChat component of either side: the thread as JSON, its steps, its files.
  route("visit-chat/:id", "routes/visit-chat/thread.ts"),
  route("visit-chat/:id/attachments/:documentId", "routes/visit-chat/attachment.ts"),
  // A video visit's call setup (ICE servers, role) for the device check and the call, either side.
  route("visit-call/:id", "routes/visit-call/setup.ts"),
  // A video visit's call history (join, leave, rejoin) from the call screen of either side.
  route("visit-call/:id/events", "routes/visit-call/events.ts"),
  // The console workspace's save-as-you-type of the notes (JSON) and the patient's documents (bytes).
  route("console/visits/:id/notes", "routes/console/visit-notes.ts"),
  route("console/visits/:id/documents/:documentId", "routes/console/visit-document.ts"),
  // What either side's visit page shows, as JSON, for the page's own re-reads on live events (ADR 047).
  route("my-profile/consultations/:consultationId/data", "routes/my-profile/visit-data.ts"),
  // A booked visit's `.ics` for the patient's own calendar (ADR 063).
  route("my-profile/consultations/:consultationId/calendar", "routes/my-profile/visit-calendar.ts"),
  route("console/visits/:id/data", "routes/console/visit-data.ts"),
  // A visit page saying this device visibly shows the visit (no push about it meanwhile, ADR 064).
  route("notifications/showing/:id", "routes/notifications-showing.ts"),
  // The access-log search of the operations console as the API's CSV (ADR 065).
  route("operations/access-log/export", "routes/operations/access-log-export.ts"),
  // One report of the operations console as the API's CSV (ADR 066).
  route("operations/reports/export", "routes/operations/reports-export.ts"),
  // Unknown paths redirect to /.
  route("*", "routes/catch-all.tsx"),
] satisfies RouteConfig;
