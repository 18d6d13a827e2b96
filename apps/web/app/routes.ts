import { index, layout, type RouteConfig, route } from "@react-router/dev/routes";
/**
 * Every route of the site, explicitly. Access flags live in lib/route-access.ts (one entry per path
 * here; route-access.test.ts keeps the two in step). Route files mirror the URL under routes/.
 */
export default [
  layout("routes/layouts/main.tsx", [
    index("routes/home.tsx"),
    route("about", "routes/about.tsx"),
    route("ada-policy", "routes/ada-policy.tsx"),
    route("almost-there", "routes/almost-there.tsx"),
    route("audio-video-recording-consent-in-ehrs", "routes/audio-video-recording-consent-in-ehrs.tsx"),
    route("call-ended", "routes/call-ended.tsx"),
    route("careers", "routes/careers/index.tsx"),
    route("careers/:page", "routes/careers/page.tsx"),
    route("conditions-we-see", "routes/conditions-we-see.tsx"),
    route("consultation/consult", "routes/consultation/consult.tsx"),
    route("consultation/form", "routes/consultation/form.tsx"),
    route("consultation/thank-you", "routes/consultation/thank-you.tsx"),
    route("contact-us", "routes/contact-us.tsx"),
    route("disclaimer", "routes/disclaimer.tsx"),
    route("find-a-doctor", "routes/find-a-doctor.tsx"),
    // A provider's profile: the directory's detail view (an addition to the required search page).
    route("find-a-doctor/:page", "routes/find-a-doctor/provider.tsx"),
    route("frequently-asked-questions", "routes/frequently-asked-questions.tsx"),
    route("informed-consent", "routes/informed-consent.tsx"),
    route("membership", "routes/membership.tsx"),
    route("membership-trial", "routes/membership-trial.tsx"),
    route("miscellaneous", "routes/miscellaneous.tsx"),
    route("non-discrimination-notice", "routes/non-discrimination-notice.tsx"),
    route("one-time-visit", "routes/one-time-visit.tsx"),
    route(
      "patient-consent-for-financial-communications",
      "routes/patient-consent-for-financial-communications.tsx",
    ),
    route("pricing-options", "routes/pricing-options.tsx"),
    route("privacy-policy", "routes/privacy-policy.tsx"),
    route("sitemap", "routes/sitemap.tsx"),
    route("specializations", "routes/specializations.tsx"),
    route("terms-of-use", "routes/terms-of-use.tsx"),
    route("thank-you-for-ordering", "routes/thank-you-for-ordering.tsx"),
    route("thank-you-for-subscribing", "routes/thank-you-for-subscribing.tsx"),
    route("unsubscribe", "routes/unsubscribe.tsx"),
    // The newsletter's double opt-in link, and where a deleted account lands (ADR 017).
    route("confirm-subscription", "routes/confirm-subscription.tsx"),
    route("account-deleted", "routes/account-deleted.tsx"),
    route(
      "washington-consumer-health-data-privacy-notice",
      "routes/washington-consumer-health-data-privacy-notice.tsx",
    ),
    route("logout", "routes/logout.tsx"),
    route("cancel-subscription", "routes/cancel-subscription.tsx"),
    // The demo payment provider's hosted checkout (ADR 015); not one of the required routes.
    route("checkout/:checkoutId", "routes/checkout/checkout.tsx"),
    route("my-profile", "routes/my-profile/index.tsx"),
    route("my-profile/billing-history", "routes/my-profile/billing-history.tsx"),
    route("my-profile/billing-history/:invoiceId", "routes/my-profile/billing-history/receipt.tsx"),
    route("my-profile/consultations", "routes/my-profile/consultations.tsx"),
    // One visit's own page: the waiting room, the chat, then the summary (ADR 040).
    route("my-profile/consultations/:consultationId", "routes/my-profile/visit.tsx"),
    route("my-profile/manage-subscription", "routes/my-profile/manage-subscription.tsx"),
    route("my-profile/medical-records", "routes/my-profile/medical-records.tsx"),
    route("my-profile/messages", "routes/my-profile/messages.tsx"),
    route("my-profile/past-appointments", "routes/my-profile/past-appointments.tsx"),
    // Washington My Health My Data: download, consent, deletion (ADR 017).
    route("my-profile/health-data", "routes/my-profile/health-data.tsx"),
    // Two-step login (ADR 024): the setup, the login's code step and the lost-device link.
    route("my-profile/security", "routes/my-profile/security.tsx"),
    route("login", "routes/login.tsx"),
    route("login/second-factor", "routes/login/second-factor.tsx"),
    route("login/lost-device", "routes/login/lost-device.tsx"),
    route("sign-up", "routes/sign-up.tsx"),
    route("sign-up/confirm", "routes/sign-up.confirm.tsx"),
    route("forgot-password", "routes/forgot-password.tsx"),
    route("reset-password", "routes/reset-password.tsx"),
  ]),
  // The care console of clinicians (ADR 035): its own layout, header and access rule.
  layout("routes/layouts/console.tsx", [
    route("console", "routes/console/index.tsx"),
    // One accepted visit's workspace: intake, documents, earlier visits, chat, notes, sign and complete.
    route("console/visits/:id", "routes/console/visit.tsx"),
  ]),
  layout("routes/layouts/soon.tsx", [
    route("blog", "routes/blog/index.tsx"),
    route("blog/:page", "routes/blog/page.tsx"),
    route("medical-providers", "routes/medical-providers.tsx"),
  ]),
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
  route("console/visits/:id/data", "routes/console/visit-data.ts"),
  // Unknown paths redirect to /.
  route("*", "routes/catch-all.tsx"),
] satisfies RouteConfig;
