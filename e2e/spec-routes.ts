/**
 * The site's required routes, written out here from the specification itself (not imported from the app)
 * so the journeys check the app against the spec rather than against its own table.
 */
export type SpecRoute = { path: string; title: string; layout: "main" | "soon" };

const main = (path: string, title: string): SpecRoute => ({ path, title, layout: "main" });
const soon = (path: string, title: string): SpecRoute => ({ path, title, layout: "soon" });

/** Pages any visitor can open. The home page is titled with the product name alone (ADR 006). */
export const PUBLIC_ROUTES: SpecRoute[] = [
  main("/", "Ambercare"),
  main("/about", "About us | Ambercare"),
  main("/ada-policy", "ADA Policy | Ambercare"),
  main("/almost-there", "Almost there | Ambercare"),
  main("/audio-video-recording-consent-in-ehrs", "Audio-Video Recording Consent | Ambercare"),
  soon("/blog", "Blog | Ambercare"),
  soon("/blog/first-post", "Blog | Ambercare"),
  // "Call ended" only after a video visit of one's own: an anonymous visitor has had none.
  main("/call-ended", "After a video visit | Ambercare"),
  main("/careers", "Careers | Ambercare"),
  main("/conditions-we-see", "Conditions we see | Ambercare"),
  main("/consultation/consult", "Consultation | Ambercare"),
  main("/consultation/thank-you", "Consultation requested | Ambercare"),
  main("/contact-us", "Contact us | Ambercare"),
  main("/disclaimer", "Disclaimer | Ambercare"),
  main("/find-a-doctor", "Find a doctor | Ambercare"),
  main("/frequently-asked-questions", "Frequently asked questions | Ambercare"),
  main("/informed-consent", "Informed Consent | Ambercare"),
  soon("/medical-providers", "Medical providers | Ambercare"),
  main("/membership", "Membership | Ambercare"),
  main("/membership-trial", "Membership trial | Ambercare"),
  main("/miscellaneous", "Miscellaneous | Ambercare"),
  main("/non-discrimination-notice", "Non-Discrimination Notice | Ambercare"),
  main("/one-time-visit", "One-time visit | Ambercare"),
  main(
    "/patient-consent-for-financial-communications",
    "Patient Consent for Financial Communications | Ambercare",
  ),
  main("/pricing-options", "Pricing options | Ambercare"),
  main("/privacy-policy", "Privacy Policy | Ambercare"),
  main("/sitemap", "Sitemap | Ambercare"),
  main("/specializations", "Specializations | Ambercare"),
  main("/terms-of-use", "Terms of Use | Ambercare"),
  main("/thank-you-for-ordering", "Thank you for your order | Ambercare"),
  main("/thank-you-for-subscribing", "Thank you for subscribing | Ambercare"),
  main("/unsubscribe", "Unsubscribe | Ambercare"),
  main(
    "/washington-consumer-health-data-privacy-notice",
    "Washington Consumer Health Data Privacy Notice | Ambercare",
  ),
  main("/login", "Log in | Ambercare"),
  main("/sign-up", "Sign up | Ambercare"),
  main("/forgot-password", "Forgot password | Ambercare"),
  main("/reset-password", "Reset password | Ambercare"),
];

/** Login required: anonymous visitors go to /login. */
export const PROTECTED_ROUTES: string[] = [
  "/consultation/form",
  "/cancel-subscription",
  "/my-profile",
  "/my-profile/billing-history",
  "/my-profile/consultations",
  "/my-profile/manage-subscription",
  "/my-profile/medical-records",
  "/my-profile/messages",
  "/my-profile/past-appointments",
  "/my-profile/notifications",
];
