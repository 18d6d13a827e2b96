import type { RoutePath } from "#app/lib/pages.ts";

/** Header navigation (the task's list), in order. Labels are `nav.<key>` in the locale files. */
export const PRIMARY_NAV = Object.freeze([
  { to: "/find-a-doctor", key: "findADoctor" },
  { to: "/specializations", key: "specializations" },
  { to: "/pricing-options", key: "pricing" },
  { to: "/membership", key: "membership" },
  { to: "/frequently-asked-questions", key: "faq" },
  { to: "/contact-us", key: "contact" },
] as const satisfies ReadonlyArray<{ to: RoutePath; key: string }>);

/** Footer legal links. Labels are `footer.legal.<key>`. */
export const LEGAL_LINKS = Object.freeze([
  { to: "/privacy-policy", key: "privacyPolicy" },
  { to: "/terms-of-use", key: "termsOfUse" },
  { to: "/disclaimer", key: "disclaimer" },
  { to: "/informed-consent", key: "informedConsent" },
  { to: "/audio-video-recording-consent-in-ehrs", key: "audioVideoRecordingConsent" },
  { to: "/patient-consent-for-financial-communications", key: "financialCommunicationsConsent" },
  { to: "/non-discrimination-notice", key: "nonDiscriminationNotice" },
  { to: "/ada-policy", key: "adaPolicy" },
  { to: "/washington-consumer-health-data-privacy-notice", key: "washingtonHealthDataNotice" },
] as const satisfies ReadonlyArray<{ to: RoutePath; key: string }>);

/** Footer company links. Labels are `footer.company.<key>`. */
export const COMPANY_LINKS = Object.freeze([
  { to: "/sitemap", key: "sitemap" },
  { to: "/about", key: "about" },
  { to: "/careers", key: "careers" },
  { to: "/contact-us", key: "contact" },
  { to: "/frequently-asked-questions", key: "faq" },
] as const satisfies ReadonlyArray<{ to: RoutePath; key: string }>);

/** The sections of My profile (the login-required /my-profile pages). Labels are `pages.<key>.title`. */
export const PROFILE_LINKS = Object.freeze([
  { to: "/my-profile", key: "myProfile" },
  { to: "/my-profile/consultations", key: "consultations" },
  { to: "/my-profile/past-appointments", key: "pastAppointments" },
  { to: "/my-profile/messages", key: "messages" },
  { to: "/my-profile/medical-records", key: "medicalRecords" },
  { to: "/my-profile/billing-history", key: "billingHistory" },
  { to: "/my-profile/manage-subscription", key: "manageSubscription" },
  { to: "/my-profile/health-data", key: "healthData" },
  { to: "/my-profile/security", key: "security" },
  { to: "/my-profile/notifications", key: "notifications" },
] as const satisfies ReadonlyArray<{ to: RoutePath; key: string }>);
